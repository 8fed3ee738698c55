import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'violet',
  // Shade 7 keeps white text on violet buttons above the WCAG AA contrast of 4.5:1.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Noto Sans Arabic", "Noto Sans CJK SC", sans-serif',
  headings: { fontWeight: '700' },
  focusRing: 'auto',
});

/**
 * Mantine's light-scheme greys (dimmed text, subtle grey buttons) and the text of light and
 * subtle buttons and badges fall short of 4.5:1 on white; darker shades pass.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-gray-light-color': 'var(--mantine-color-gray-8)',
    '--mantine-color-violet-light-color': 'var(--mantine-color-violet-9)',
    '--mantine-color-red-light-color': 'var(--mantine-color-red-9)',
    '--mantine-color-green-light-color': 'var(--mantine-color-green-9)',
    '--mantine-color-teal-light-color': 'var(--mantine-color-teal-9)',
    '--mantine-color-anchor': 'var(--mantine-color-violet-9)',
  },
  dark: {},
});
