import type { ColorModePreference } from '../../machines/colorMode.machine';
import { css } from '../../styled-system/css';

/** What the colour-mode control and its first-paint stand-in (./ColorModeSwitch.lazy.tsx) share. */
export const options: readonly { value: ColorModePreference; label: string; icon: string }[] = [
  { value: 'light', label: 'Light', icon: 'lucide:sun' },
  { value: 'dark', label: 'Dark', icon: 'lucide:moon' },
  { value: 'system', label: 'System', icon: 'lucide:monitor' },
];

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
