import { type ColorModePreference, colorModePreferences } from '../../machines/colorMode/colorMode.machine';
import { css } from '../../styled-system/css';

const shown: Record<ColorModePreference, { label: string; icon: string }> = {
  light: { label: 'Light', icon: 'lucide:sun' },
  dark: { label: 'Dark', icon: 'lucide:moon' },
  system: { label: 'System', icon: 'lucide:monitor' },
};

/**
 * What the colour-mode control and its first-paint stand-in (./ColorModeSwitch.lazy.tsx) share: the machine's
 * preferences, in its order, each with how it is shown (a new preference without a label is a type error).
 */
export const options: readonly { value: ColorModePreference; label: string; icon: string }[] =
  colorModePreferences.map((value) => ({ value, ...shown[value] }));

export const root = css({
  position: 'relative',
  display: 'inline-flex',
  alignItems: 'center',
  gap: '0.5',
  p: '0.5',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'control',
  bg: 'bg.muted',
  '&[data-disabled]': { opacity: 0.7 },
});

export const item = css({
  position: 'relative',
  zIndex: 1,
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  h: '8',
  px: '2',
  borderRadius: 'sm',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  cursor: 'pointer',
  _hover: { color: 'fg.highlighted' },
  '&[data-state=checked]': { color: 'fg.highlighted', bg: 'bg', boxShadow: 'xs' },
  '&:has(input:focus-visible)': { outline: '2px solid', outlineColor: 'primary.focus', outlineOffset: '1px' },
  '&[data-disabled]': { cursor: 'not-allowed', _hover: { color: 'fg.muted' } },
});
