import { createElement, type ReactNode, useEffect, useMemo, useSyncExternalStore } from 'react';
import { css, cx } from '../../styled-system/css';
import type { SvgNode } from '../platform/iconSvg';
import { type RenderedIcon, renderedIcons } from '../platform/icons.rendered';
import { lazyModule } from '../platform/lazyLoad';
import { useLazyModule } from './useLazyModule';

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

/** The parsed, allow-listed body as React elements: props and text go through React, never markup. */
function renderNodes(nodes: readonly (SvgNode | string)[]): ReactNode[] {
  return nodes.map((node, index) =>
    typeof node === 'string'
      ? node
      : // An icon body is static: its order is its identity, so the index is the key.
        createElement(node.tag, { key: index, ...node.props }, ...renderNodes(node.children)),
  );
}

/** The box of exactly `size` that every icon is drawn in, whatever its state, so it never moves the layout. */
export function IconBox({
  name,
  size = '1em',
  label,
  className,
  state,
  svg,
}: IconProps & { readonly state: 'loaded' | 'loading' | 'missing'; readonly svg: RenderedIcon | null }) {
  const dimension = typeof size === 'number' ? `${size}px` : size;
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <span
      {...a11y}
      className={cx(box, className)}
      style={{ width: dimension, height: dimension }}
      data-icon={name}
      data-state={state}
    >
      {svg ? (
        <svg xmlns="http://www.w3.org/2000/svg" viewBox={svg.viewBox} aria-hidden="true" focusable="false">
          {renderNodes(svg.nodes)}
        </svg>
      ) : null}
    </span>
  );
}

/** Iconify's utilities, the body parser and the loader: only for an icon the build did not render. */
const runtimeCode = lazyModule(() => import('../platform/iconRuntime'));
const LOADING = { status: 'loading' } as const;
const nothingToWatch = () => () => undefined;

/** An icon from the loader, once its code is here; the same box (the same element) throughout. */
function LoadedIcon(props: IconProps) {
  const runtime = useLazyModule(runtimeCode, true);
  const loader = runtime?.getIconLoader();
  const snapshot = () => (loader ? loader.state(props.name) : LOADING);
  // The same snapshot on the server, so a prerendered page that names an icon the build did not render
  // hydrates without a mismatch.
  const state = useSyncExternalStore(loader?.subscribe ?? nothingToWatch, snapshot, snapshot);
  useEffect(() => loader?.request(props.name), [loader, props.name]);
  const svg = useMemo(
    () => (runtime && state.status === 'loaded' ? runtime.renderIcon(state.data) : null),
    [runtime, state],
  );
  return (
    <IconBox
      {...props}
      state={svg ? 'loaded' : state.status === 'loading' ? 'loading' : 'missing'}
      svg={svg}
    />
  );
}

/**
 * An Iconify icon in a box of exactly `size`, whether it has loaded, is loading or could not be had. The
 * icons the app's own source names were turned into SVG trees at build (`renderedIcons`) and draw on first
 * paint with no code beyond this file; any other through the loader in src/platform/iconRuntime.ts, a chunk of
 * its own. Bodies are rendered from their parsed, allow-listed trees (src/platform/iconSvg.ts), never as markup.
 */
export function Icon(props: IconProps) {
  const rendered = renderedIcons[props.name];
  return rendered ? <IconBox {...props} state="loaded" svg={rendered} /> : <LoadedIcon {...props} />;
}
