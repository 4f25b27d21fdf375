/**
 * What an icon that the build did not render needs: the loader (./icons.ts, batched, timed out, with the
 * public fallback), Iconify's utilities and the body parser. A chunk of its own, imported by src/ui/Icon.tsx
 * only when such an icon is on a page: the app's own icons never need it.
 */
import type { IconifyIcon } from '@iconify/types';
import { iconToSVG, replaceIDs } from '@iconify/utils';
import { parseIconBody } from './iconSvg';
import type { RenderedIcon } from './icons.rendered';

export { getIconLoader } from './icons';

/** The icon's viewBox and parsed, allow-listed body; `null` when the body is refused. */
export function renderIcon(data: IconifyIcon): RenderedIcon | null {
  const { attributes, body } = iconToSVG(data);
  const nodes = parseIconBody(replaceIDs(body));
  return nodes ? { viewBox: attributes.viewBox, nodes } : null;
}
