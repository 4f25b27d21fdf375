import { css } from '../../styled-system/css';

/** Hidden on screen, read by screen readers. */
export const visuallyHidden = css({
  position: 'absolute',
  w: '1px',
  h: '1px',
  p: '0',
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0, 0, 0, 0)',
  whiteSpace: 'nowrap',
  borderWidth: '0',
});

export const card = css({
  bg: 'bg',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'card',
  p: { base: '4', md: '6' },
  boxShadow: 'sm',
});

export const pageTitle = css({
  fontSize: { base: '2xl', md: '3xl' },
  fontWeight: 'bold',
  color: 'fg.highlighted',
  letterSpacing: '-0.01em',
  lineHeight: '1.2',
  _focus: { outline: 'none' },
});

export const stack = css({ display: 'grid', gap: '6' });

export const muted = css({ color: 'fg.muted' });
