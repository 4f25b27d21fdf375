import { defineConfig } from '@pandacss/dev';
import { alertRecipe, cardRecipe, textStyles } from './src/ui/theme.styles';
import { toastKeyframes, toastRecipe } from './src/ui/toast.recipe';

/**
 * The theme. Colour aliases follow the spec (primary green, secondary blue, success green, info blue,
 * warning yellow, error red, neutral slate). Text-bearing variants use darker shades than the reference's
 * 500/400 where white or dark text must reach WCAG AA contrast on them.
 */
/**
 * The palettes the semantic tokens below are built from. Panda's default preset brings 22 more (and its
 * demo keyframes); every token becomes a CSS variable whether used or not, so they are dropped when the
 * preset loads (`preset:resolved`). Components use only semantic colours, never a palette directly.
 */
const palettes = new Set([
  'current',
  'transparent',
  'white',
  'black',
  'slate',
  'green',
  'blue',
  'yellow',
  'red',
]);
const unusedTokenGroups = ['animations', 'blurs', 'aspectRatios'];

/**
 * A colour of the theme: the light shade, the dark one under `data-color-mode=dark` (set before the first
 * paint by the boot script), and the dark one when the system prefers dark and nothing set the attribute
 * (JavaScript off: the page follows the system, as "System" does).
 */
const alias = (light: string, dark: string) => ({
  value: {
    base: `{colors.${light}}`,
    _dark: `{colors.${dark}}`,
    _systemDark: { _noColorMode: `{colors.${dark}}` },
  },
});

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  outdir: 'styled-system',
  jsxFramework: 'react',
  hooks: {
    'preset:resolved': ({ preset, name }) => {
      if (name !== '@pandacss/preset-panda') return;
      const theme = preset.theme ?? {};
      const tokens: Record<string, unknown> = { ...theme.tokens };
      const colors = (tokens.colors ?? {}) as Record<string, unknown>;
      tokens.colors = Object.fromEntries(Object.entries(colors).filter(([key]) => palettes.has(key)));
      for (const group of unusedTokenGroups) delete tokens[group];
      return { ...preset, theme: { ...theme, tokens, keyframes: {} } };
    },
  },
  // Dark styles hang on the attribute the colour-mode machine sets on <html>; without it (no script ran),
  // on the system's preference.
  conditions: {
    extend: {
      dark: '[data-color-mode=dark] &',
      light: '[data-color-mode=light] &',
      systemDark: '@media (prefers-color-scheme: dark)',
      noColorMode: ':root:not([data-color-mode]) &',
    },
  },
  globalCss: {
    html: {
      colorScheme: 'light',
      bg: 'bg',
      color: 'fg',
      fontFamily: 'body',
      lineHeight: '1.55',
      // Preflight's code, kbd, samp and pre font: the theme's, which ends in \`monospace\` (preflight's own list does
      // not: where none of its fonts is installed, code fell back to the proportional body font).
      '--global-font-mono': 'var(--fonts-mono)',
    },
    '[data-color-mode=dark]': { colorScheme: 'dark' },
    '@media (prefers-color-scheme: dark)': { ':root:not([data-color-mode])': { colorScheme: 'dark' } },
    body: { minHeight: '100dvh', WebkitFontSmoothing: 'antialiased' },
    ':focus-visible': { outline: '2px solid', outlineColor: 'primary.focus', outlineOffset: '2px' },
    '@media (prefers-reduced-motion: reduce)': {
      '*, *::before, *::after': {
        animationDuration: '0.01ms !important',
        transitionDuration: '0.01ms !important',
      },
    },
  },
  theme: {
    extend: {
      keyframes: { ...toastKeyframes },
      slotRecipes: { toast: toastRecipe },
      textStyles,
      breakpoints: { xs: '320px', sm: '640px', md: '768px', lg: '1024px', xl: '1280px', '2xl': '1536px' },
      tokens: {
        fonts: {
          body: {
            value: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
          },
          mono: { value: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
        },
      },
      semanticTokens: {
        colors: {
          bg: {
            DEFAULT: alias('white', 'slate.900'),
            muted: alias('slate.50', 'slate.950'),
            elevated: alias('slate.100', 'slate.800'),
          },
          fg: {
            DEFAULT: alias('slate.700', 'slate.200'),
            muted: alias('slate.600', 'slate.400'),
            highlighted: alias('slate.900', 'white'),
          },
          border: { DEFAULT: alias('slate.200', 'slate.700'), strong: alias('slate.300', 'slate.600') },
          primary: {
            DEFAULT: alias('green.500', 'green.400'),
            solid: alias('green.700', 'green.400'),
            onSolid: alias('white', 'slate.950'),
            text: alias('green.700', 'green.400'),
            subtle: alias('green.50', 'green.950'),
            focus: alias('green.600', 'green.400'),
          },
          secondary: { DEFAULT: alias('blue.500', 'blue.400'), text: alias('blue.700', 'blue.300') },
          success: { DEFAULT: alias('green.500', 'green.400'), text: alias('green.700', 'green.400') },
          info: { DEFAULT: alias('blue.500', 'blue.400'), text: alias('blue.700', 'blue.300') },
          warning: { DEFAULT: alias('yellow.500', 'yellow.400'), text: alias('yellow.800', 'yellow.300') },
          error: {
            DEFAULT: alias('red.500', 'red.400'),
            text: alias('red.700', 'red.300'),
            subtle: alias('red.50', 'red.950'),
          },
          neutral: { DEFAULT: alias('slate.500', 'slate.400') },
        },
        radii: { control: { value: '{radii.md}' }, card: { value: '{radii.xl}' } },
      },
      recipes: {
        card: cardRecipe,
        alert: alertRecipe,
        button: {
          className: 'button',
          base: {
            display: 'inline-flex',
            alignItems: 'center',
            justifyContent: 'center',
            gap: '2',
            fontWeight: 'semibold',
            borderRadius: 'control',
            cursor: 'pointer',
            transition: 'background 120ms, border-color 120ms',
            whiteSpace: 'nowrap',
            textDecoration: 'none',
            _disabled: { opacity: 0.6, cursor: 'not-allowed' },
          },
          variants: {
            visual: {
              solid: {
                bg: 'primary.solid',
                color: 'primary.onSolid',
                _hover: { filter: 'brightness(1.08)' },
              },
              outline: {
                borderWidth: '1px',
                borderColor: 'border.strong',
                color: 'fg.highlighted',
                bg: 'bg',
                _hover: { bg: 'bg.elevated' },
              },
              ghost: { color: 'fg.highlighted', _hover: { bg: 'bg.elevated' } },
            },
            size: {
              sm: { h: '8', px: '3', fontSize: 'sm' },
              md: { h: '10', px: '4', fontSize: 'sm' },
            },
          },
          defaultVariants: { visual: 'solid', size: 'md' },
        },
      },
    },
  },
});
