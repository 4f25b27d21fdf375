import { useState, useSyncExternalStore } from 'react';
import { css, cx } from '../../styled-system/css';
import { config, type ImageFit, type ImageFormat } from '../config';
import { defaultImageSizes, imageUrl, imageWidthSrcSet } from '../platform/images';
import { Icon } from './Icon';

export interface ImageProps {
  /** Source path in the server's image folder, e.g. `/campaigns/campaign-1.jpg`; null shows the placeholder. */
  readonly src: string | null;
  /** Required: say what the image shows, or pass `""` for a decorative one. */
  readonly alt: string;
  /** Size at density 1 in CSS pixels. Both are always set, so the box is reserved before the image loads. */
  readonly width: number;
  readonly height: number;
  /**
   * How wide the image is shown at each viewport width (the `sizes` attribute), for the browser to pick the
   * candidate the slot needs before layout. Without it: the viewport's width below `width`, else `width`.
   */
  readonly sizes?: string;
  readonly format?: ImageFormat;
  /** 1–100; `config.images.defaultQuality` unless given. */
  readonly quality?: number;
  readonly fit?: ImageFit;
  /** Above the fold (a page's hero): loads at once with high fetch priority. Otherwise it loads lazily. */
  readonly priority?: boolean;
  readonly className?: string;
}

/** Fills its container's width; `width`/`height` fix the aspect ratio, so nothing shifts when it arrives. */
const picture = css({ display: 'block', w: 'full', h: 'auto', maxW: 'full', objectFit: 'cover' });

/** The same box as `picture`, with a muted icon in the middle. */
const placeholder = css({
  display: 'grid',
  placeItems: 'center',
  w: 'full',
  h: 'auto',
  maxW: 'full',
  bg: 'bg.elevated',
  color: 'fg.muted',
});

const noSubscription = () => () => {};

/** True while React hydrates server HTML (its server snapshot), false in a render that started in the browser. */
function useHydrating(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}

/**
 * An image through the same-origin optimiser (`/_ipx/...`): candidates by width for the slot `sizes` describes
 * (1x and 2x of `width` among them), webp unless told otherwise. When the optimiser answers with an error (bad
 * modifier, missing source) or there is no source, a placeholder of the same size takes its place.
 */
export function Image({
  src,
  alt,
  width,
  height,
  sizes,
  format,
  quality = config.images.defaultQuality,
  fit,
  priority,
  className,
}: ImageProps) {
  const modifiers = { width, height, format, quality, fit };
  const url = src === null ? null : imageUrl(src, modifiers);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const hydrating = useHydrating();
  const aspectRatio = `${width} / ${height}`;

  if (url === null || failedUrl === url) {
    const a11y = alt ? { role: 'img', 'aria-label': alt } : { 'aria-hidden': true };
    return (
      <span {...a11y} className={cx(placeholder, className)} style={{ aspectRatio }} data-state="placeholder">
        <Icon name="lucide:image-off" size="2rem" />
      </span>
    );
  }
  return (
    <img
      src={url}
      srcSet={src === null ? undefined : imageWidthSrcSet(src, modifiers)}
      sizes={sizes ?? defaultImageSizes(width)}
      width={width}
      height={height}
      alt={alt}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      className={cx(picture, className)}
      style={{ aspectRatio }}
      onError={() => setFailedUrl(url)}
      // In prerendered HTML the image may have failed before React hydrated it, when no handler listened.
      // (A lazy image not fetched yet has no `currentSrc`.)
      ref={(img) => {
        if (hydrating && img?.complete && img.currentSrc !== '' && img.naturalWidth === 0) setFailedUrl(url);
      }}
    />
  );
}
