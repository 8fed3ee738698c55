import { Box, Image } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import {
  useEffect,
  useReducer,
  useRef,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import {
  logoBox,
  markCentres,
  markWidth,
  outlineColorFor,
  turnedBox,
  WATERMARK_BASE_FONT_PX,
  type Box as Size,
  type Point,
} from '@refract/contracts';
import { fontFamily, measureText } from './measure-text';
import type { WatermarkSettings } from './watermark-settings';

/** Arrow keys move the mark by 1% of the image (10% with Shift). */
const KEY_STEP = 0.01;
const KEYS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/** A loaded logo: its object URL and natural size. */
export interface LogoImage {
  url: string;
  width: number;
  height: number;
}

/**
 * The mark's drawn size on the shown image and how to draw it: the same geometry the server
 * uses (markWidth, logoBox, markCentres from the contracts), at the preview's scale.
 */
function layout(settings: WatermarkSettings, shown: Size, logo: LogoImage | null) {
  if (settings.mark === 'logo' && logo) {
    const box = logoBox(logo, markWidth(settings, shown, logo.width), shown);
    return { box, fontPx: 0 };
  }
  const probe = measureText(settings.text || ' ', settings.font, WATERMARK_BASE_FONT_PX);
  const width = markWidth(settings, shown, probe.width);
  const fontPx = Math.min(
    Math.max(shown.width, shown.height),
    (WATERMARK_BASE_FONT_PX * width) / probe.width,
  );
  const factor = fontPx / WATERMARK_BASE_FONT_PX;
  return { box: { width: probe.width * factor, height: probe.height * factor }, fontPx };
}

/**
 * The image with the mark on it as the server will draw it: one mark (dragged with a pointer
 * or moved with arrow keys, or anchored), or tiles over the whole image; cut off at its edges.
 */
export function WatermarkPreview(props: {
  url: string;
  settings: WatermarkSettings;
  logo: LogoImage | null;
  onMove(x: number, y: number): void;
}) {
  const { t } = useTranslation();
  const frame = useRef<HTMLDivElement>(null);
  const size = useElementSize();
  const frameRef = useMergedRef(frame, size.ref);
  const { settings, logo } = props;
  // The text is measured in its face: once the bundled face has loaded, measure again.
  const [, fontLoaded] = useReducer((count: number) => count + 1, 0);
  useEffect(() => {
    let live = true;
    void document.fonts
      .load(`${WATERMARK_BASE_FONT_PX}px ${fontFamily(settings.font)}`)
      .finally(() => live && fontLoaded());
    return () => {
      live = false;
    };
  }, [settings.font]);
  const shown = { width: size.width, height: size.height };
  const ready = shown.width > 0 && (settings.mark === 'text' || logo !== null);
  const { box, fontPx } = ready ? layout(settings, shown, logo) : { box: shown, fontPx: 0 };
  const centres = ready ? markCentres(settings, shown, turnedBox(box, settings.rotation)) : [];
  const tiled = settings.position === 'tiled';
  // Where the one mark is, as fractions: an anchor's place is where a drag or a key starts.
  const here =
    centres[0] && !tiled
      ? { x: centres[0].x / shown.width, y: centres[0].y / shown.height }
      : { x: settings.x, y: settings.y };

  function moveTo(event: PointerEvent) {
    const rect = frame.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return;
    props.onMove(
      clamp01((event.clientX - rect.left) / rect.width),
      clamp01((event.clientY - rect.top) / rect.height),
    );
  }

  function onKeyDown(event: KeyboardEvent) {
    const direction = KEYS[event.key];
    if (!direction) return;
    event.preventDefault();
    const step = event.shiftKey ? KEY_STEP * 10 : KEY_STEP;
    props.onMove(clamp01(here.x + direction[0] * step), clamp01(here.y + direction[1] * step));
  }

  const markStyle = (centre: Point): CSSProperties => ({
    position: 'absolute',
    left: centre.x,
    top: centre.y,
    width: box.width,
    height: box.height,
    transform: `translate(-50%, -50%) rotate(${settings.rotation}deg)`,
    opacity: settings.opacity,
    userSelect: 'none',
  });
  const textStyle: CSSProperties = {
    fontSize: fontPx,
    // The box is the text's ink, a little narrower and shorter than its line: centred both
    // ways, the glyphs sit where the server's cropped text does.
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'center',
    lineHeight: 1,
    fontFamily: fontFamily(settings.font),
    color: settings.color,
    // The server's outline reaches 1/20 of the font size out; a stroke is centred on the edge.
    WebkitTextStroke: `${fontPx / 10}px ${outlineColorFor(settings.color)}`,
    paintOrder: 'stroke fill',
    whiteSpace: 'pre',
    unicodeBidi: 'plaintext',
  };
  const mark = (centre: Point, key: number, interactive: boolean) => {
    const common = {
      key,
      style: { ...markStyle(centre), ...(settings.mark === 'text' && textStyle) },
    };
    const content =
      settings.mark === 'logo' && logo ? (
        <img src={logo.url} alt="" width={box.width} height={box.height} draggable={false} />
      ) : (
        settings.text || ' '
      );
    if (!interactive) {
      return (
        <Box {...common} aria-hidden dir="auto" data-testid="watermark-tile">
          {content}
        </Box>
      );
    }
    return (
      <Box
        {...common}
        role="slider"
        tabIndex={0}
        aria-label={t('watermark.positionLabel')}
        aria-valuetext={t('watermark.position', {
          x: Math.round(here.x * 100),
          y: Math.round(here.y * 100),
        })}
        aria-valuenow={Math.round(here.x * 100)}
        onKeyDown={onKeyDown}
        onPointerDown={(event) => {
          event.currentTarget.setPointerCapture(event.pointerId);
          event.currentTarget.focus();
        }}
        onPointerMove={(event) => {
          if (event.currentTarget.hasPointerCapture(event.pointerId)) moveTo(event);
        }}
        data-testid={settings.mark === 'logo' ? 'watermark-logo' : 'watermark-text'}
        // Pango takes each paragraph's direction from its first strong character; so does this
        // ("© Refract" stays "© Refract" on an Arabic page).
        dir="auto"
        style={{ ...common.style, cursor: 'move', touchAction: 'none', outlineOffset: 4 }}
      >
        {content}
      </Box>
    );
  };

  return (
    <Box
      ref={frameRef}
      pos="relative"
      mx="auto"
      w="fit-content"
      maw="100%"
      // Marks past the edges are cut off, as they are in the server's result.
      style={{ lineHeight: 0, overflow: 'hidden' }}
    >
      <Image
        src={props.url}
        alt={t('tool.preview')}
        maw="100%"
        mah={480}
        w="auto"
        style={{ userSelect: 'none' }}
        draggable={false}
      />
      {tiled
        ? centres.map((centre, index) => mark(centre, index, false))
        : centres[0] && mark(centres[0], 0, true)}
    </Box>
  );
}
