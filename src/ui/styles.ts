import { css } from '../../styled-system/css';
import { card as cardRecipe } from '../../styled-system/recipes';

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

/** Kept as a class name for the places that join it with others; the styles are the `card` recipe's. */
export const card = cardRecipe();

/** A page's main heading: it takes focus after a navigation, without a ring (it is not a control). */
export const pageTitle = css({
  textStyle: 'pageTitle',
  color: 'fg.highlighted',
  _focus: { outline: 'none' },
});

export const sectionTitle = css({ textStyle: 'sectionTitle', color: 'fg.highlighted' });

export const stack = css({ display: 'grid', gap: '6' });

export const muted = css({ color: 'fg.muted' });
