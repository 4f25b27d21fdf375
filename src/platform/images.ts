import { config, type ImageConfig, type ImageFit, type ImageFormat } from '../config';

/** What an image URL may ask of the optimiser; everything else is dropped or clamped on the way in. */
export interface ImageModifiers {
  /** CSS pixels at density 1: a number, `'300'` or `'300px'` (nuxt/image's `parseSize`). */
  readonly width?: number | string | undefined;
  readonly height?: number | string | undefined;
  /** Defaults to `config.images.defaultFormat`; a format the server does not know falls back to it. */
  readonly format?: ImageFormat | undefined;
  /** 1–100. */
  readonly quality?: number | undefined;
  readonly fit?: ImageFit | undefined;
}

const QUALITY_MIN = 1;
const QUALITY_MAX = 100;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function parseSize(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)(?:px)?\s*$/.exec(value);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

function dimension(value: unknown, images: ImageConfig): number | undefined {
  const size = parseSize(value);
  return size === undefined ? undefined : clamp(Math.round(size), 1, images.maxDimension);
}

/**
 * The source as a same-origin path below the optimiser: split on `/` and `\`, empty, `.` and `..` segments
 * dropped, each segment percent-encoded. So no input can leave the image folder or the origin: a full URL
 * such as `https://x.test/a.png` becomes the (missing, hence 404) local path `https%3A/x.test/a.png`.
 */
export function imageSourcePath(src: string): string {
  return String(src)
    .split(/[/\\]+/)
    .filter((segment) => segment !== '' && segment !== '.' && segment !== '..')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/**
 * The modifiers part of an optimiser URL, in nuxt/image's order: `w_`/`h_` when only one is set, then `f_`,
 * `q_`, `fit_`, and `s_{w}x{h}` last when both are set. Joined by `&`.
 */
export function imageModifiers(modifiers: ImageModifiers = {}, images: ImageConfig = config.images): string {
  const width = dimension(modifiers.width, images);
  const height = dimension(modifiers.height, images);
  const format = images.formats.includes(modifiers.format as ImageFormat)
    ? (modifiers.format as ImageFormat)
    : images.defaultFormat;
  const ops: string[] = [];
  if (width !== undefined && height === undefined) ops.push(`w_${width}`);
  if (height !== undefined && width === undefined) ops.push(`h_${height}`);
  ops.push(`f_${format}`);
  // Stryker disable next-line ConditionalExpression: `Number.isFinite` does not coerce: it is false for every value that is not a number (`Number.isFinite('80')` is false), so the conjunction is decided by its second half alone. The typeof test narrows the type for TypeScript. Tested: a quality of '80' adds no `q_` ('rounds quality, and takes it only as a number').
  if (typeof modifiers.quality === 'number' && Number.isFinite(modifiers.quality)) {
    ops.push(`q_${clamp(Math.round(modifiers.quality), QUALITY_MIN, QUALITY_MAX)}`);
  }
  if (images.fits.includes(modifiers.fit as ImageFit)) ops.push(`fit_${modifiers.fit}`);
  if (width !== undefined && height !== undefined) ops.push(`s_${width}x${height}`);
  return ops.join('&');
}

/** `/_ipx/{modifiers}/{src}`: always same-origin, with only allow-listed, clamped modifiers. */
export function imageUrl(
  src: string,
  modifiers: ImageModifiers = {},
  images: ImageConfig = config.images,
): string {
  return `${images.endpoint}/${imageModifiers(modifiers, images)}/${imageSourcePath(src)}`;
}

/**
 * `srcset` with one density descriptor per configured density (`… 1x, … 2x`). A candidate that would pass the
 * server's largest size is scaled down as a whole, so it keeps the 1x aspect ratio instead of being cut on one
 * side.
 */
export function imageSrcSet(
  src: string,
  modifiers: ImageModifiers = {},
  images: ImageConfig = config.images,
): string {
  const width = dimension(modifiers.width, images);
  const height = dimension(modifiers.height, images);
  const densities = [...new Set(images.densities)]
    .filter((d) => Number.isFinite(d) && d > 0)
    .sort((a, b) => a - b);
  return (densities.length > 0 ? densities : [1])
    .map((density) => {
      let scale = density;
      if (width !== undefined) scale = Math.min(scale, images.maxDimension / width);
      if (height !== undefined) scale = Math.min(scale, images.maxDimension / height);
      const scaled = {
        ...modifiers,
        // Stryker disable next-line ConditionalExpression: With no width the mutant passes `Math.round(undefined * scale)`, which is NaN, to imageUrl; imageModifiers reads it through `dimension` -> `parseSize`, where a number that is not finite is no size, so no `w_` or `s_` is written, exactly as for undefined. Tested with height-only srcsets ('scales a candidate with only a width or only a height down to the largest size').
        width: width === undefined ? undefined : Math.round(width * scale),
        // Stryker disable next-line ConditionalExpression: As for the width on the line before: `Math.round(undefined * scale)` is NaN, which `parseSize` treats as no size, so no `h_` or `s_` is written. Tested with width-only srcsets.
        height: height === undefined ? undefined : Math.round(height * scale),
      };
      return `${imageUrl(src, scaled, images)} ${density}x`;
    })
    .join(', ');
}

/**
 * The widths, in image pixels, an image shown at most `width` CSS px wide is offered at: each configured density
 * of it, and each configured breakpoint below the largest of those, so that a slot narrower than `width` (a
 * phone's column) at any density finds a candidate just above what it needs. At most the largest size the
 * server renders; ascending, each once. Empty without a usable width.
 */
export function imageWidths(
  width: number | string | undefined,
  images: ImageConfig = config.images,
): number[] {
  const base = dimension(width, images);
  if (base === undefined) return [];
  const densities = images.densities.filter((d) => Number.isFinite(d) && d > 0);
  const largest = Math.min(images.maxDimension, Math.round(base * Math.max(1, ...densities)));
  const widths = [
    ...densities.map((d) => Math.round(base * d)),
    ...Object.values(images.breakpoints).filter((w) => Number.isFinite(w) && w >= 1),
    base,
  ].map((w) => Math.min(w, largest));
  return [...new Set(widths)].sort((a, b) => a - b);
}

/**
 * `srcset` with width descriptors (`… 640w, … 960w`), one per `imageWidths` candidate, each of the image's
 * aspect ratio (a candidate whose height would pass the server's largest size is scaled down as a whole). The
 * browser picks one from the slot `sizes` describes and the screen's density. Without a width the density
 * `srcset` is the one to use (`imageSrcSet`).
 */
export function imageWidthSrcSet(
  src: string,
  modifiers: ImageModifiers = {},
  images: ImageConfig = config.images,
): string {
  const width = dimension(modifiers.width, images);
  const height = dimension(modifiers.height, images);
  if (width === undefined) return imageSrcSet(src, modifiers, images);
  const candidates = new Map<number, string>();
  for (const candidate of imageWidths(width, images)) {
    const tall = height === undefined ? 1 : Math.min(1, images.maxDimension / ((candidate * height) / width));
    const w = Math.max(1, Math.round(candidate * tall));
    // imageUrl clamps the height into [1, the largest size] as it does every side (a 2,000 x 1 banner's 320 px
    // candidate is 320 x 1); the width is the descriptor too, so it is floored here.
    const h = height === undefined ? undefined : Math.round((w * height) / width);
    if (!candidates.has(w)) candidates.set(w, imageUrl(src, { ...modifiers, width: w, height: h }, images));
  }
  return [...candidates].map(([w, url]) => `${url} ${w}w`).join(', ');
}

/**
 * `sizes` for an image that fills its container up to `width` CSS px: the whole viewport on a screen narrower
 * than that (an upper bound), else `width`. A layout that knows its columns says so instead.
 */
export function defaultImageSizes(width: number): string {
  return `(max-width: ${width}px) 100vw, ${width}px`;
}
