// @vitest-environment node
/** The canonical link and link-preview tags of a prerendered page (build/pageMeta.ts). */
import { describe, expect, it } from 'vitest';
import { pageMetaTags, withPageMeta } from '../../build/pageMeta';

const DOCUMENT =
  '<!doctype html><html><head><meta name="description" content="Raised beds &#38; a tool shed &#34;for all&#34;" />' +
  '<title>Maple Street Community Garden | campaign-web</title></head><body></body></html>';
const IMAGE = { url: '/_ipx/f_jpeg&fit_cover&s_1200x630/campaigns/campaign-1.jpg', width: 1200, height: 630 };

function tagsOf(html: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)) {
    found[match[1] as string] = match[2] as string;
  }
  const canonical = /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1];
  if (canonical !== undefined) found.canonical = canonical;
  return found;
}

describe('a prerendered page with the site’s origin', () => {
  it('has an absolute canonical link, Open Graph tags from its title and description, and a large card', () => {
    const tags = tagsOf(
      pageMetaTags(DOCUMENT, { path: '/campaign/1', image: IMAGE, origin: 'https://campaigns.example' }),
    );
    expect(tags).toEqual({
      canonical: 'https://campaigns.example/campaign/1',
      'og:type': 'website',
      'og:site_name': 'campaign-web',
      'og:title': 'Maple Street Community Garden | campaign-web',
      'og:description': 'Raised beds &#38; a tool shed &#34;for all&#34;',
      'og:url': 'https://campaigns.example/campaign/1',
      'og:image':
        'https://campaigns.example/_ipx/f_jpeg&#38;fit_cover&#38;s_1200x630/campaigns/campaign-1.jpg',
      'og:image:width': '1200',
      'og:image:height': '630',
      'og:image:alt': 'Maple Street Community Garden | campaign-web',
      'twitter:card': 'summary_large_image',
    });
  });

  it('has a small card and no image tags when the page has no picture', () => {
    const tags = tagsOf(pageMetaTags(DOCUMENT, { path: '/', origin: 'https://campaigns.example' }));
    expect(tags['twitter:card']).toBe('summary');
    expect(tags['og:url']).toBe('https://campaigns.example/');
    expect(Object.keys(tags).filter((name) => name.startsWith('og:image'))).toEqual([]);
  });
});

describe('a prerendered page built without PUBLIC_ORIGIN', () => {
  it('has a relative canonical link and leaves out what must be absolute: og:url and the image', () => {
    const tags = tagsOf(pageMetaTags(DOCUMENT, { path: '/campaign/1', image: IMAGE, origin: undefined }));
    expect(tags.canonical).toBe('/campaign/1');
    expect(tags['og:title']).toBe('Maple Street Community Garden | campaign-web');
    expect(tags['og:url']).toBeUndefined();
    expect(tags['og:image']).toBeUndefined();
    expect(tags['twitter:card']).toBe('summary');
  });
});

describe('placing the tags', () => {
  it('puts them at the end of <head>, once', () => {
    const html = withPageMeta(DOCUMENT, { path: '/', origin: undefined });
    expect(html.match(/rel="canonical"/g)).toHaveLength(1);
    expect(html).toMatch(/<meta name="twitter:card" content="summary"><\/head><body>/);
  });

  it('refuses a document without </head>, naming the page', () => {
    expect(() => withPageMeta('<p>no head</p>', { path: '/x', origin: undefined })).toThrow(
      'The prerendered /x has no </head>.',
    );
  });
});
