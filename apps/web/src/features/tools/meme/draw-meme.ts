import { MEME_BAND_PX, MEME_FONT_PX } from '@refract/contracts';

export interface MemeSettings {
  topText: string;
  bottomText: string;
  position: 'inside' | 'outside';
  background: 'white' | 'black';
}

/** The same layout as the server's: 10 px margins, a 3 px outline inside, 80 px bands outside. */
const MARGIN = 10;
const OUTLINE = 3;
const LINE_HEIGHT = 1.25;
export const MEME_FONT = `${MEME_FONT_PX}px Anton, Impact, sans-serif`;

/** Breaks text into lines no wider than `width`, at spaces (long words stay whole). */
function wrap(context: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && context.measureText(candidate).width > width) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines;
}

/** Draws the meme at the image's own size; CSS scales the canvas down to fit the page. */
export function drawMeme(canvas: HTMLCanvasElement, image: HTMLImageElement, meme: MemeSettings) {
  const outside = meme.position === 'outside';
  const band = outside ? MEME_BAND_PX : 0;
  const width = image.naturalWidth;
  const height = image.naturalHeight;
  canvas.width = width;
  canvas.height = height + 2 * band;
  const context = canvas.getContext('2d');
  if (!context) return;
  context.fillStyle = meme.background === 'white' ? '#ffffff' : '#000000';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.drawImage(image, 0, band);
  context.font = MEME_FONT;
  context.textAlign = 'center';
  context.textBaseline = 'top';
  context.lineJoin = 'round';
  context.fillStyle = outside ? (meme.background === 'white' ? '#000000' : '#ffffff') : '#ffffff';
  context.strokeStyle = '#000000';
  context.lineWidth = OUTLINE * 2;
  const lineHeight = MEME_FONT_PX * LINE_HEIGHT;

  const block = (text: string, where: 'top' | 'bottom') => {
    const lines = wrap(context, text, width - 2 * MARGIN);
    const blockHeight = lines.length * lineHeight;
    const top = outside
      ? (where === 'top' ? 0 : band + height) + (band - blockHeight) / 2
      : where === 'top'
        ? MARGIN
        : height - MARGIN - blockHeight;
    lines.forEach((line, index) => {
      const y = top + index * lineHeight;
      if (!outside) context.strokeText(line, width / 2, y);
      context.fillText(line, width / 2, y);
    });
  };
  block(meme.topText.trim(), 'top');
  block(meme.bottomText.trim(), 'bottom');
}
