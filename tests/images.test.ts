import fc from 'fast-check';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IMAGE_LIMITS, parseImagePath } from '../server/images';
import { config } from '../src/config';
import { imageModifiers, imageSourcePath, imageSrcSet, imageUrl } from '../src/platform/images';
import { Image } from '../src/ui/Image';

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

  it('always sets width and height, loads lazily by default and offers 1x and 2x', async () => {
    const container = await render({ src: '/campaigns/campaign-1.jpg', alt: '', width: 480, height: 270 });
    const img = container.querySelector('img');
    expect(img?.getAttribute('width')).toBe('480');
    expect(img?.getAttribute('height')).toBe('270');
    expect(img?.getAttribute('alt')).toBe('');
    expect(img?.getAttribute('loading')).toBe('lazy');
    expect(img?.hasAttribute('fetchpriority')).toBe(false);
    expect(img?.getAttribute('src')).toBe('/_ipx/f_webp&s_480x270/campaigns/campaign-1.jpg');
    expect(img?.getAttribute('srcset')).toBe(
      '/_ipx/f_webp&s_480x270/campaigns/campaign-1.jpg 1x, /_ipx/f_webp&s_960x540/campaigns/campaign-1.jpg 2x',
    );
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
