import {
  IconArrowsMaximize,
  IconBlur,
  IconCode,
  IconCrop,
  IconFileMusic,
  IconMoodHappy,
  IconMovie,
  IconPhotoDown,
  IconResize,
  IconScissors,
  IconRotateClockwise,
  IconTransform,
  IconVideoMinus,
  IconVolume,
  IconWriting,
  type Icon,
} from '@tabler/icons-react';

/** The icon of each tool, chosen by its route. */
const ICONS: Record<string, Icon> = {
  '/convert': IconTransform,
  '/compress': IconPhotoDown,
  '/resize': IconResize,
  '/remove-background': IconScissors,
  '/html-to-image': IconCode,
  '/rotate': IconRotateClockwise,
  '/crop': IconCrop,
  '/watermark': IconWriting,
  '/meme-generator': IconMoodHappy,
  '/blur-face': IconBlur,
  '/upscale': IconArrowsMaximize,
  '/convertaudio': IconFileMusic,
  '/compress-audio': IconVolume,
  '/convertvideo': IconMovie,
  '/compress-video': IconVideoMinus,
};

export function ToolIcon({ route, size = 20 }: { route: string; size?: number }) {
  const Component = ICONS[route] ?? IconTransform;
  return <Component size={size} stroke={1.6} aria-hidden />;
}
