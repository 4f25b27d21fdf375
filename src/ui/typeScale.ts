/**
 * Every font strike (family, size and weight, as Panda tokens) that the app's text is drawn in, at every width:
 * src/platform/fonts.ts warms each while the browser idles, so that the first page to use one does not wait for
 * the font inside its first frame. e2e/fonts.spec.ts fails on text drawn in a strike that is not listed here.
 */
export interface FontStrike {
  readonly family: 'body' | 'mono';
  /** A `fontSizes` token. */
  readonly size: string;
  /** A `fontWeights` token. */
  readonly weight: string;
}

/** Warmed in this order: the pages a link on the first page leads to first. */
export const TYPE_SCALE: readonly FontStrike[] = [
  // The campaign page: its title at each width, the progress card, the page header.
  { family: 'body', size: '3xl', weight: 'bold' },
  { family: 'body', size: '2xl', weight: 'bold' },
  { family: 'body', size: 'lg', weight: 'bold' },
  // The landing page's title and section headings.
  { family: 'body', size: '5xl', weight: 'extrabold' },
  { family: 'body', size: '3xl', weight: 'extrabold' },
  { family: 'body', size: 'xl', weight: 'bold' },
  // The error pages' status and title.
  { family: 'body', size: '8xl', weight: 'extrabold' },
  { family: 'body', size: '7xl', weight: 'extrabold' },
  { family: 'body', size: '2xl', weight: 'semibold' },
  { family: 'body', size: 'xl', weight: 'semibold' },
  // Text, links, labels and buttons.
  { family: 'body', size: 'lg', weight: 'normal' },
  { family: 'body', size: 'lg', weight: 'semibold' },
  { family: 'body', size: 'lg', weight: 'extrabold' },
  // The header's product name at phone widths, kept on the header's one row.
  { family: 'body', size: 'md', weight: 'extrabold' },
  { family: 'body', size: 'md', weight: 'normal' },
  { family: 'body', size: 'md', weight: 'medium' },
  { family: 'body', size: 'sm', weight: 'normal' },
  { family: 'body', size: 'sm', weight: 'medium' },
  { family: 'body', size: 'sm', weight: 'semibold' },
  { family: 'body', size: 'sm', weight: 'bold' },
  { family: 'body', size: 'xs', weight: 'normal' },
  { family: 'body', size: 'xs', weight: 'semibold' },
  // Code samples in the component gallery.
  { family: 'mono', size: 'sm', weight: 'normal' },
];
