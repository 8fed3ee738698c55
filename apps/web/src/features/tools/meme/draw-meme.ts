import {
  fitMemeText,
  memeBandPx,
  memeBlockHeight,
  memeFontPx,
  memeLineHeightPx,
  memeLineTops,
  memeMarginPx,
  memeOutlinePx,
  MEME_FONT_SIZE,
  MEME_MEASURE_PX,
  MEME_OUTLINE,
  type MemeBox,
  type MemeBlock,
  type MemeFit,
  type MemeMeasure,
} from '@refract/contracts';

/** A text box being edited: the server's box with an id for React and for dragging. */
export interface MemeBoxDraft extends MemeBox {
  id: number;
}

export interface MemeSettings {
  topText: string;
  bottomText: string;
  position: 'inside' | 'outside';
  background: 'white' | 'black';
  fontSize: number;
  outline: number;
  boxes: MemeBoxDraft[];
}

export const DEFAULT_MEME: MemeSettings = {
  topText: '',
  bottomText: '',
  position: 'inside',
  background: 'white',
  fontSize: MEME_FONT_SIZE.default,
  outline: MEME_OUTLINE.default,
  boxes: [],
};

/** The bundled Anton, as the server's Pango draws it. */
export const memeFont = (px: number) => `${px}px Anton, Impact, sans-serif`;

/** Where each text box landed on the canvas (its pixels), for the draggable frames. */
export interface BoxFrame {
  id: number;
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface MemeLayout {
  width: number;
  height: number;
  topBand: number;
  boxes: BoxFrame[];
}

const ink = (context: CanvasRenderingContext2D, text: string) => {
  const metrics = context.measureText(text);
  return metrics.actualBoundingBoxLeft + metrics.actualBoundingBoxRight;
};

/** Ink widths at MEME_MEASURE_PX, as the server measures them with Pango. */
function canvasMeasure(context: CanvasRenderingContext2D): MemeMeasure {
  context.font = memeFont(MEME_MEASURE_PX);
  const widths = new Map<string, number>();
  return {
    word(word) {
      if (!widths.has(word)) widths.set(word, Math.round(ink(context, word)));
      return widths.get(word)!;
    },
    space: Math.round(ink(context, 'I I')) - Math.round(ink(context, 'II')),
  };
}

/** Each line's ink centred on `centreX` and in its slot, as the server places its renders. */
function drawBlock(context: CanvasRenderingContext2D, block: MemeBlock) {
  const lineHeight = memeLineHeightPx(block.fit.fontPx);
  const tops = memeLineTops(block.fit);
  context.font = memeFont(block.fit.fontPx);
  context.textAlign = 'left';
  context.textBaseline = 'alphabetic';
  context.lineJoin = 'round';
  context.fillStyle = block.color;
  context.strokeStyle = '#000000';
  context.lineWidth = block.outlinePx * 2;
  block.fit.lines.forEach((line, index) => {
    const m = context.measureText(line);
    const inkWidth = m.actualBoundingBoxLeft + m.actualBoundingBoxRight;
    const inkHeight = m.actualBoundingBoxAscent + m.actualBoundingBoxDescent;
    const x = block.centreX - inkWidth / 2 + m.actualBoundingBoxLeft;
    const y = block.top + tops[index]! + (lineHeight - inkHeight) / 2 + m.actualBoundingBoxAscent;
    if (block.outlinePx > 0) context.strokeText(line, x, y);
    context.fillText(line, x, y);
  });
}

/**
 * The preview canvas is drawn at most this many pixels on its longer side: on screen it is at
 * most 480 px high (twice that on a sharp screen), and a phone's 12-megapixel photo redrawn at
 * full size on every keystroke made typing lag.
 */
const PREVIEW_SIDE = 1600;

/**
 * Draws the meme and returns its layout, in the image's own pixels (where the server draws it):
 * the canvas is scaled down to PREVIEW_SIDE, and CSS scales it to the page.
 */
export function drawMeme(
  canvas: HTMLCanvasElement,
  image: HTMLImageElement,
  meme: MemeSettings,
): MemeLayout | null {
  const context = canvas.getContext('2d');
  if (!context) return null;
  const width = image.naturalWidth;
  const height = image.naturalHeight;
  const measure = canvasMeasure(context);
  const margin = memeMarginPx(width, height);
  const fit = (text: string, fontSize: number, maxWidth: number) =>
    fitMemeText(text.trim(), memeFontPx(height, fontSize), Math.max(1, maxWidth), measure);
  const top = fit(meme.topText, meme.fontSize, width - 2 * margin);
  const bottom = fit(meme.bottomText, meme.fontSize, width - 2 * margin);
  const outside = meme.position === 'outside';
  const topBand = outside ? memeBandPx(top, margin) : 0;
  const bottomBand = outside ? memeBandPx(bottom, margin) : 0;

  const fullHeight = height + topBand + bottomBand;
  const scale = Math.min(1, PREVIEW_SIDE / Math.max(width, fullHeight));
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(fullHeight * scale);
  // Everything below is in the image's pixels (text is measured unscaled either way).
  context.setTransform(scale, 0, 0, scale, 0, 0);
  context.fillStyle = meme.background === 'white' ? '#ffffff' : '#000000';
  context.fillRect(0, 0, width, fullHeight);
  context.drawImage(image, 0, topBand, width, height);

  const onPhoto = (fit: MemeFit) => ({
    color: '#ffffff',
    outlinePx: memeOutlinePx(fit.fontPx, meme.outline),
  });
  const onBand = { color: meme.background === 'white' ? '#000000' : '#ffffff', outlinePx: 0 };
  drawBlock(context, {
    fit: top,
    centreX: width / 2,
    top: outside ? (topBand - memeBlockHeight(top)) / 2 : margin,
    ...(outside ? onBand : onPhoto(top)),
  });
  drawBlock(context, {
    fit: bottom,
    centreX: width / 2,
    top: outside
      ? topBand + height + (bottomBand - memeBlockHeight(bottom)) / 2
      : height - margin - memeBlockHeight(bottom),
    ...(outside ? onBand : onPhoto(bottom)),
  });
  const frames = meme.boxes.map((box) => {
    const boxFit = fit(box.text, box.fontSize ?? meme.fontSize, box.width * width);
    // An empty box still shows a frame one line high, to grab.
    const blockHeight = Math.max(memeBlockHeight(boxFit), memeLineHeightPx(boxFit.fontPx));
    const boxTop = topBand + box.y * height - blockHeight / 2;
    drawBlock(context, { fit: boxFit, centreX: box.x * width, top: boxTop, ...onPhoto(boxFit) });
    return {
      id: box.id,
      left: (box.x - box.width / 2) * width,
      top: boxTop,
      width: box.width * width,
      height: blockHeight,
    };
  });
  return { width, height: fullHeight, topBand, boxes: frames };
}
