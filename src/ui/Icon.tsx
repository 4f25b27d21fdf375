import { iconToSVG, replaceIDs } from '@iconify/utils';
import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { css, cx } from '../../styled-system/css';
import { getIconLoader } from '../platform/icons';

export interface IconProps {
  /** An Iconify name, `prefix:name`, such as `lucide:house`. */
  readonly name: string;
  /** Width and height: a number is CSS pixels, a string any CSS length. Defaults to the text size. */
  readonly size?: number | string;
  /** What the icon means, for an icon that stands alone. Without it the icon is decorative and hidden. */
  readonly label?: string;
  readonly className?: string;
}

const box = css({
  display: 'inline-block',
  flexShrink: 0,
  verticalAlign: '-0.125em',
  lineHeight: '0',
  '& > svg': { display: 'block', w: 'full', h: 'full' },
});

/**
 * An Iconify icon in a box of exactly `size`, whether it has loaded, is loading or could not be had, so it
 * never moves the layout. The app's own icons are inlined at build and render on first paint; any other is
 * loaded by `src/platform/icons.ts` (batched, timed out, with the public fallback).
 */
export function Icon({ name, size = '1em', label, className }: IconProps) {
  const loader = getIconLoader();
  const state = useSyncExternalStore(loader.subscribe, () => loader.state(name));
  useEffect(() => loader.request(name), [loader, name]);
  const svg = useMemo(() => {
    if (state.status !== 'loaded') return null;
    const { attributes, body } = iconToSVG(state.data);
    return { viewBox: attributes.viewBox, html: replaceIDs(body) };
  }, [state]);
  const dimension = typeof size === 'number' ? `${size}px` : size;
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <span
      {...a11y}
      className={cx(box, className)}
      style={{ width: dimension, height: dimension }}
      data-icon={name}
      data-state={state.status}
    >
      {svg ? (
        <svg
          xmlns="http://www.w3.org/2000/svg"
          viewBox={svg.viewBox}
          aria-hidden="true"
          focusable="false"
          // biome-ignore lint/security/noDangerouslySetInnerHtml: an Iconify body is SVG markup by definition; src/platform/icons.ts refuses bodies that could run script.
          dangerouslySetInnerHTML={{ __html: svg.html }}
        />
      ) : null}
    </span>
  );
}
