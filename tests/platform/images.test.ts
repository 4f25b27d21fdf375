import fc from 'fast-check';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IMAGE_LIMITS, parseImagePath } from '../../server/routes/images';
import { config, type ImageConfig } from '../../src/config';
import {
  defaultImageSizes,
  imageModifiers,
  imageSourcePath,
  imageSrcSet,
  imageUrl,
  imageWidthSrcSet,
  imageWidths,
} from '../../src/platform/images';
import { Image } from '../../src/ui/Image';

const ORIGIN = 'https://app.example';

/** Every modifier of a built URL as [key, value], checked against the server's allow-list and ranges. */
function checkModifiers(segment: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of segment.split('&')) {
    const [, key, value] = /^([a-z]+)_(.+)$/.exec(part) ?? [];
    expect(key, part).toBeDefined();
    expect(found.has(key ?? ''), `duplicate ${key}`).toBe(false);
    found.set(key ?? '', value ?? '');
  }
  for (const [key, value] of found) {
    switch (key) {
      case 'w':
      case 'h':
        expect(Number(value)).toBeGreaterThanOrEqual(1);
        expect(Number(value)).toBeLessThanOrEqual(IMAGE_LIMITS.maxDimension);
        expect(value).toMatch(/^\d+$/);
        break;
      case 's': {
        const [w, h] = value.split('x').map(Number);
        for (const n of [w, h]) {
          expect(Number.isInteger(n)).toBe(true);
          expect(n).toBeGreaterThanOrEqual(1);
          expect(n).toBeLessThanOrEqual(IMAGE_LIMITS.maxDimension);
        }
        break;
      }
      case 'q':
        expect(value).toMatch(/^\d+$/);
        expect(Number(value)).toBeGreaterThanOrEqual(1);
        expect(Number(value)).toBeLessThanOrEqual(100);
        break;
      case 'f':
        expect(IMAGE_LIMITS.formats).toContain(value);
        break;
      case 'fit':
        expect(IMAGE_LIMITS.fits).toContain(value);
        break;
      default:
        throw new Error(`modifier ${key} is not allow-listed`);
    }
  }
  expect(found.has('s') && (found.has('w') || found.has('h'))).toBe(false);
  return found;
}

const anySize = fc.oneof(
  fc.double(),
  fc.integer({ min: -10_000, max: 100_000 }),
  fc.string(),
  fc.integer({ min: 0, max: 5000 }).map((n) => `${n}px`),
  fc.constant(undefined),
);
const anyModifiers = fc.record(
  {
    width: anySize,
    height: anySize,
    format: fc.oneof(fc.constantFrom(...IMAGE_LIMITS.formats), fc.string()),
    quality: fc.oneof(fc.double(), fc.integer({ min: -500, max: 500 })),
    fit: fc.oneof(fc.constantFrom(...IMAGE_LIMITS.fits), fc.string()),
  },
  { requiredKeys: [] },
);
const anySource = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.webUrl(),
  fc.constantFrom(
    '../../etc/passwd',
    '/campaigns/../../x.jpg',
    '\\\\host\\share',
    '//evil.test/a.png',
    'C:\\a.jpg',
  ),
  fc
    .array(fc.constantFrom('..', '.', '', 'a', '%2e%2e', 'b c', '?', '#', '&', ','), { maxLength: 8 })
    .map((parts) => parts.join('/')),
);

describe('image URL builder', () => {
  it('turns any input into a same-origin /_ipx URL with only allow-listed, clamped modifiers', () => {
    fc.assert(
      fc.property(anySource, anyModifiers, (src, modifiers) => {
        // biome-ignore lint/suspicious/noExplicitAny: the property feeds deliberately ill-typed input.
        const url = imageUrl(src, modifiers as any);
        const parsed = new URL(url, ORIGIN);
        expect(parsed.origin).toBe(ORIGIN);
        expect(parsed.search).toBe('');
        expect(parsed.hash).toBe('');
        const [, endpoint, mods, ...source] = url.split('/');
        expect(`/${endpoint}`).toBe(config.images.endpoint);
        expect(checkModifiers(mods ?? '').get('f')).toBeDefined();
        // An input with no usable segment leaves an empty source, which the server answers with a 400.
        if (source.join('/') !== '') {
          for (const segment of source) expect(['', '.', '..']).not.toContain(decodeURIComponent(segment));
        }
        // And the server reads back exactly what was built, whenever the source is a path it accepts at all.
        const decoded = source.map(decodeURIComponent);
        if (decoded.length > 0 && decoded.every((s) => s !== '' && s.length <= 255 && !/[:\0]/.test(s))) {
          const request = parseImagePath(url);
          expect(request.source).toBe(decoded.join('/'));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('gives every srcset candidate the same guarantees, one per density', () => {
    fc.assert(
      fc.property(anySource, anyModifiers, (src, modifiers) => {
        // biome-ignore lint/suspicious/noExplicitAny: the property feeds deliberately ill-typed input.
        const candidates = imageSrcSet(src, modifiers as any).split(', ');
        expect(candidates.map((c) => c.split(' ')[1])).toEqual(['1x', '2x']);
        for (const candidate of candidates) {
          const [url = '', descriptor, ...rest] = candidate.split(' ');
          expect(rest).toEqual([]);
          expect(descriptor).toMatch(/^\dx$/);
          expect(new URL(url, ORIGIN).origin).toBe(ORIGIN);
          checkModifiers(url.split('/')[2] ?? '');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('writes modifiers in nuxt/image’s shape and order', () => {
    expect(imageUrl('img.png', { width: 300, height: 200, format: 'webp', quality: 80, fit: 'cover' })).toBe(
      '/_ipx/f_webp&q_80&fit_cover&s_300x200/img.png',
    );
    expect(imageUrl('/img.png', { width: 300 })).toBe('/_ipx/w_300&f_webp/img.png');
    expect(imageUrl('/img.png', { height: '120px' })).toBe('/_ipx/h_120&f_webp/img.png');
    expect(imageUrl('/a/b.jpg', { format: 'avif' })).toBe('/_ipx/f_avif/a/b.jpg');
    expect(imageModifiers()).toBe('f_webp');
  });

  it('clamps sizes and quality into the server’s ranges', () => {
    expect(imageModifiers({ width: 5000, height: 0 })).toBe('f_webp&s_2048x1');
    expect(imageModifiers({ width: -3 })).toBe('w_1&f_webp');
    expect(imageModifiers({ width: 299.6 })).toBe('w_300&f_webp');
    expect(imageModifiers({ quality: 0 })).toBe('f_webp&q_1');
    expect(imageModifiers({ quality: 250 })).toBe('f_webp&q_100');
    expect(imageModifiers({ width: Number.NaN, quality: Number.POSITIVE_INFINITY })).toBe('f_webp');
  });

  it('keeps the source inside the image folder and the origin', () => {
    expect(imageSourcePath('../../etc/passwd')).toBe('etc/passwd');
    expect(imageSourcePath('https://evil.test/a.png')).toBe('https%3A/evil.test/a.png');
    expect(imageSourcePath('//evil.test/a.png')).toBe('evil.test/a.png');
    expect(imageSourcePath('a\\..\\..\\b.png')).toBe('a/b.png');
    expect(imageSourcePath('/campaigns/a b&c,d.jpg')).toBe('campaigns/a%20b%26c%2Cd.jpg');
  });

  it('builds 1x and 2x candidates, scaled down as a whole past the largest size', () => {
    expect(imageSrcSet('/a.jpg', { width: 480, height: 270, fit: 'cover' })).toBe(
      '/_ipx/f_webp&fit_cover&s_480x270/a.jpg 1x, /_ipx/f_webp&fit_cover&s_960x540/a.jpg 2x',
    );
    expect(imageSrcSet('/a.jpg', { width: 1104, height: 414 })).toBe(
      '/_ipx/f_webp&s_1104x414/a.jpg 1x, /_ipx/f_webp&s_2048x768/a.jpg 2x',
    );
    expect(imageSrcSet('/a.jpg')).toBe('/_ipx/f_webp/a.jpg 1x, /_ipx/f_webp/a.jpg 2x');
  });
});

describe('image sizes, formats and densities', () => {
  /** The configuration with some fields replaced, as a deployment might set them. */
  const images = (changes: Partial<ImageConfig>): ImageConfig => ({ ...config.images, ...changes });

  it('reads a size given as text the way nuxt/image does, and ignores any other', () => {
    expect(imageModifiers({ width: ' 300px ' })).toBe('w_300&f_webp');
    expect(imageModifiers({ width: '300' })).toBe('w_300&f_webp');
    expect(imageModifiers({ width: '299.4' })).toBe('w_299&f_webp');
    expect(imageModifiers({ height: '12.5px' })).toBe('h_13&f_webp');
    for (const width of ['300em', '3e2', 'px', '', '30 0', '-300', '300.', '.5', 'a300', '300pxx']) {
      expect(imageModifiers({ width }), width).toBe('f_webp');
    }
    expect(imageModifiers({ width: '300.25px' })).toBe('w_300&f_webp');
    // A caller outside TypeScript may pass anything; only a number or a string is a size, never what an
    // array or another object turns into as text.
    for (const width of [true, ['300'], { toString: () => '300' }]) {
      // biome-ignore lint/suspicious/noExplicitAny: deliberately ill-typed input.
      expect(imageModifiers({ width: width as any }), String(width)).toBe('f_webp');
    }
  });

  it('clamps sizes to the configured largest size', () => {
    expect(imageModifiers({ width: 900 }, images({ maxDimension: 640 }))).toBe('w_640&f_webp');
    expect(imageModifiers({ height: 640 }, images({ maxDimension: 640 }))).toBe('h_640&f_webp');
  });

  it('rounds quality, and takes it only as a number', () => {
    expect(imageModifiers({ quality: 80.4 })).toBe('f_webp&q_80');
    expect(imageModifiers({ quality: 1 })).toBe('f_webp&q_1');
    // biome-ignore lint/suspicious/noExplicitAny: a caller outside TypeScript may pass anything.
    expect(imageModifiers({ quality: '80' as any })).toBe('f_webp');
  });

  it('falls back to the configured format, and drops a fit or format the server does not know', () => {
    // biome-ignore lint/suspicious/noExplicitAny: a caller outside TypeScript may pass anything.
    expect(imageModifiers({ format: 'gif' as any, fit: 'stretch' as any })).toBe('f_webp');
    expect(imageModifiers({}, images({ defaultFormat: 'jpeg' }))).toBe('f_jpeg');
    expect(imageModifiers({ format: 'png', fit: 'contain' })).toBe('f_png&fit_contain');
  });

  it('builds under the configured endpoint', () => {
    expect(imageUrl('a.png', {}, images({ endpoint: '/img' }))).toBe('/img/f_webp/a.png');
  });

  it('offers each configured density once, smallest first, ignoring any that is not a positive number', () => {
    const densities = [3, 1, 2, 3, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, 10];
    expect(imageSrcSet('a.png', { width: 10 }, images({ densities }))).toBe(
      '/_ipx/w_10&f_webp/a.png 1x, /_ipx/w_20&f_webp/a.png 2x, /_ipx/w_30&f_webp/a.png 3x, /_ipx/w_100&f_webp/a.png 10x',
    );
  });

  it('offers one 1x candidate when no density is usable', () => {
    expect(imageSrcSet('a.png', { width: 10 }, images({ densities: [] }))).toBe('/_ipx/w_10&f_webp/a.png 1x');
    expect(imageSrcSet('a.png', { width: 10 }, images({ densities: [0, -2] }))).toBe(
      '/_ipx/w_10&f_webp/a.png 1x',
    );
  });

  it('scales a candidate with only a width or only a height down to the largest size', () => {
    expect(imageSrcSet('a.png', { width: 1500 })).toBe(
      '/_ipx/w_1500&f_webp/a.png 1x, /_ipx/w_2048&f_webp/a.png 2x',
    );
    expect(imageSrcSet('a.png', { height: 1500 })).toBe(
      '/_ipx/h_1500&f_webp/a.png 1x, /_ipx/h_2048&f_webp/a.png 2x',
    );
  });

  it('scales both sides by the side that would pass the largest size first', () => {
    expect(imageSrcSet('a.png', { width: 1000, height: 1500 })).toBe(
      '/_ipx/f_webp&s_1000x1500/a.png 1x, /_ipx/f_webp&s_1365x2048/a.png 2x',
    );
  });

  it('keeps the other modifiers in every candidate', () => {
    expect(imageSrcSet('a.png', { width: 100, format: 'avif', quality: 60, fit: 'inside' })).toBe(
      '/_ipx/w_100&f_avif&q_60&fit_inside/a.png 1x, /_ipx/w_200&f_avif&q_60&fit_inside/a.png 2x',
    );
  });
});

describe('width candidates', () => {
  const images = (changes: Partial<ImageConfig>): ImageConfig => ({ ...config.images, ...changes });

  it('offers 1x and 2x of the image’s width and every breakpoint below the larger, ascending, each once', () => {
    // A card: a phone's 378 px column at density 1.75 needs 662 px and finds 768, not the 2x of 960.
    expect(imageWidths(480)).toEqual([320, 480, 640, 768, 960]);
    // The hero: 2x would pass the largest size the server renders.
    expect(imageWidths(1104)).toEqual([320, 640, 768, 1024, 1104, 1280, 1536, 2048]);
    // Smaller than every breakpoint but the first: no candidate above twice its width.
    expect(imageWidths(192)).toEqual([192, 320, 384]);
    expect(
      imageWidths('100px', images({ densities: [1], breakpoints: { ...config.images.breakpoints } })),
    ).toEqual([100]);
    expect(imageWidths(undefined)).toEqual([]);
    expect(imageWidths('wide')).toEqual([]);
  });

  it('ignores densities and breakpoints that are not positive numbers', () => {
    const odd = images({
      densities: [0, -1, Number.NaN, 3],
      breakpoints: { xs: -5, sm: Number.NaN, md: 50, lg: 400, xl: 0, '2xl': Number.POSITIVE_INFINITY },
    });
    expect(imageWidths(100, odd)).toEqual([50, 100, 300]);
  });

  it('keeps the image’s aspect ratio in every candidate and describes each by its width', () => {
    expect(imageWidthSrcSet('/a.jpg', { width: 480, height: 270, fit: 'cover', quality: 70 })).toBe(
      [
        '/_ipx/f_webp&q_70&fit_cover&s_320x180/a.jpg 320w',
        '/_ipx/f_webp&q_70&fit_cover&s_480x270/a.jpg 480w',
        '/_ipx/f_webp&q_70&fit_cover&s_640x360/a.jpg 640w',
        '/_ipx/f_webp&q_70&fit_cover&s_768x432/a.jpg 768w',
        '/_ipx/f_webp&q_70&fit_cover&s_960x540/a.jpg 960w',
      ].join(', '),
    );
    expect(imageWidthSrcSet('/a.jpg', { width: 192 })).toBe(
      '/_ipx/w_192&f_webp/a.jpg 192w, /_ipx/w_320&f_webp/a.jpg 320w, /_ipx/w_384&f_webp/a.jpg 384w',
    );
  });

  it('never asks for a side under 1 px: a thin banner’s narrow candidates, a density that rounds a width to 0', () => {
    // 2,000 x 1: the 320 px candidate would be 0.16 px tall.
    const thin = imageWidthSrcSet('/a.jpg', { width: 2000, height: 1 }).split(', ');
    expect(thin.length).toBeGreaterThan(3);
    for (const candidate of thin) expect(candidate).toMatch(/&s_\d+x[1-9]\d*\/a\.jpg [1-9]\d*w$/);
    // 3 px at density 0.1 rounds to 0 px wide.
    const tiny = imageWidthSrcSet('/a.jpg', { width: 3 }, images({ densities: [0.1, 1] })).split(', ');
    expect(tiny[0]).toBe('/_ipx/w_1&f_webp/a.jpg 1w');
    for (const candidate of tiny) expect(candidate).toMatch(/ [1-9]\d*w$/);
  });

  it('scales a tall candidate down as a whole, and describes it by the width it really has', () => {
    // 1,000 x 1,500: past 1,365 px wide the height would pass 2,048.
    expect(
      imageWidthSrcSet(
        'a.png',
        { width: 1000, height: 1500 },
        images({ breakpoints: { ...config.images.breakpoints } }),
      ),
    ).toBe(
      [
        '/_ipx/f_webp&s_320x480/a.png 320w',
        '/_ipx/f_webp&s_640x960/a.png 640w',
        '/_ipx/f_webp&s_768x1152/a.png 768w',
        '/_ipx/f_webp&s_1000x1500/a.png 1000w',
        '/_ipx/f_webp&s_1024x1536/a.png 1024w',
        '/_ipx/f_webp&s_1280x1920/a.png 1280w',
        '/_ipx/f_webp&s_1365x2048/a.png 1365w',
      ].join(', '),
    );
  });

  it('falls back to density descriptors for an image without a width', () => {
    expect(imageWidthSrcSet('a.png', { height: 100 })).toBe(imageSrcSet('a.png', { height: 100 }));
    expect(imageWidthSrcSet('a.png')).toBe(imageSrcSet('a.png'));
  });

  it('gives every candidate the same guarantees as any other URL, widths ascending', () => {
    fc.assert(
      fc.property(anySource, anyModifiers, (src, modifiers) => {
        // biome-ignore lint/suspicious/noExplicitAny: the property feeds deliberately ill-typed input.
        const candidates = imageWidthSrcSet(src, modifiers as any).split(', ');
        const widths: number[] = [];
        for (const candidate of candidates) {
          const [url = '', descriptor, ...rest] = candidate.split(' ');
          expect(rest).toEqual([]);
          expect(descriptor).toMatch(/^(\d+w|\dx)$/);
          if (descriptor?.endsWith('w')) widths.push(Number.parseInt(descriptor, 10));
          expect(new URL(url, ORIGIN).origin).toBe(ORIGIN);
          checkModifiers(url.split('/')[2] ?? '');
        }
        expect(widths).toEqual([...new Set(widths)].sort((a, b) => a - b));
      }),
      { numRuns: 300 },
    );
  });

  it('sizes an image by the viewport below its width, else by its width', () => {
    expect(defaultImageSizes(480)).toBe('(max-width: 480px) 100vw, 480px');
  });
});

describe('<Image>', () => {
  // The placeholder's icon is not inlined under Vitest; keep its load off the network and out of the log.
  beforeEach(() => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('offline')));
    vi.spyOn(console, 'warn').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  async function render(props: Parameters<typeof Image>[0]) {
    const container = document.createElement('div');
    document.body.append(container);
    await act(async () => createRoot(container).render(createElement(Image, props)));
    return container;
  }

  it('always sets width and height, loads lazily by default and offers candidates by width for its sizes', async () => {
    const container = await render({ src: '/campaigns/campaign-1.jpg', alt: '', width: 480, height: 270 });
    const img = container.querySelector('img');
    expect(img?.getAttribute('width')).toBe('480');
    expect(img?.getAttribute('height')).toBe('270');
    expect(img?.getAttribute('alt')).toBe('');
    expect(img?.getAttribute('loading')).toBe('lazy');
    expect(img?.hasAttribute('fetchpriority')).toBe(false);
    expect(img?.getAttribute('src')).toBe('/_ipx/f_webp&q_70&s_480x270/campaigns/campaign-1.jpg');
    expect(img?.getAttribute('srcset')).toBe(
      imageWidthSrcSet('/campaigns/campaign-1.jpg', { width: 480, height: 270, quality: 70 }),
    );
    expect(img?.getAttribute('srcset')).toContain(
      '/_ipx/f_webp&q_70&s_640x360/campaigns/campaign-1.jpg 640w',
    );
    expect(img?.getAttribute('sizes')).toBe('(max-width: 480px) 100vw, 480px');
  });

  it('takes the sizes and the quality it is given', async () => {
    const container = await render({
      src: '/a.jpg',
      alt: '',
      width: 480,
      height: 270,
      sizes: 'calc(100vw - 34px)',
      quality: 90,
    });
    const img = container.querySelector('img');
    expect(img?.getAttribute('sizes')).toBe('calc(100vw - 34px)');
    expect(img?.getAttribute('src')).toBe('/_ipx/f_webp&q_90&s_480x270/a.jpg');
    expect(img?.getAttribute('srcset')).toContain('/_ipx/f_webp&q_90&s_960x540/a.jpg 960w');
  });

  it('loads a priority image at once, with high fetch priority', async () => {
    const container = await render({
      src: '/a.jpg',
      alt: 'A garden',
      width: 100,
      height: 50,
      priority: true,
    });
    const img = container.querySelector('img');
    expect(img?.getAttribute('loading')).toBe('eager');
    expect(img?.getAttribute('fetchpriority')).toBe('high');
    expect(img?.getAttribute('alt')).toBe('A garden');
  });

  it('shows a placeholder of the same aspect ratio when the optimiser answers an error', async () => {
    const container = await render({ src: '/missing.jpg', alt: 'A garden', width: 300, height: 200 });
    const img = container.querySelector('img');
    await act(async () => img?.dispatchEvent(new Event('error')));
    expect(container.querySelector('img')).toBeNull();
    const placeholder = container.querySelector<HTMLElement>('[data-state="placeholder"]');
    expect(placeholder?.getAttribute('role')).toBe('img');
    expect(placeholder?.getAttribute('aria-label')).toBe('A garden');
    expect(placeholder?.style.aspectRatio).toBe('300 / 200');
  });

  it('shows a decorative placeholder when there is no source', async () => {
    const container = await render({ src: null, alt: '', width: 300, height: 200 });
    const placeholder = container.querySelector<HTMLElement>('[data-state="placeholder"]');
    expect(placeholder?.getAttribute('aria-hidden')).toBe('true');
    expect(placeholder?.hasAttribute('role')).toBe(false);
  });
});
