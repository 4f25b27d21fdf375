import type { SvgNode } from './iconSvg';

/** An icon ready to render: its viewBox and its parsed, allow-listed body. */
export interface RenderedIcon {
  readonly viewBox: string;
  readonly nodes: readonly (SvgNode | string)[];
}

/**
 * The icons the app's own source names, already turned into SVG trees at build time, by full name
 * (`lucide:house`), so that `<Icon>` draws them on first paint without Iconify's utilities, the body parser or
 * the loader (those load only for an icon that is not here).
 *
 * A stand-in like ./icons.bundle.ts: build/iconBundle.ts fills it in `vite dev` and `vite build`; under
 * Vitest it stays empty, so unit tests see every icon go through the loader.
 */
export const renderedIcons: Readonly<Record<string, RenderedIcon>> = {};
