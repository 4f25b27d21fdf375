import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../build/document';
import { INLINE_PAYLOAD_ID, serializeInlinePayload } from '../../core/payload';

describe('the rendered document', () => {
  const shell = [
    '<!doctype html><html><head>',
    '<meta name="description" content="default" />',
    '<title>campaign-web</title>',
    '<script>window.boot = 1;</script>',
    '</head><body>',
    '<div id="root"><p id="boot-status">Loading campaign-web…</p></div>',
    '<noscript><p>needs JavaScript</p></noscript>',
    '</body></html>',
  ].join('\n');
  const hostile = '</script><script>alert(1)</script><!--';
  const parts = {
    html: '<link rel="preload" as="image" href="/hero.webp"/><main><h1>Hi</h1></main>',
    title: `A & B <${hostile}>`,
    description: `"quoted" ${hostile}`,
    payload: { buildId: 'b1', path: '/campaign/1', data: { title: hostile, line: '\u2028' } },
    preload: ['assets/campaign-abc.js'],
  };
  const html = renderDocument(shell, parts);

  it('holds the page’s markup, title and description, and keeps every inline script as it was', () => {
    expect(html).toContain('<div id="root"><main><h1>Hi</h1></main></div>');
    expect(html).toContain('<script>window.boot = 1;</script>');
    expect(html).not.toContain('<noscript>');
    expect(html).not.toContain('boot-status');
    expect(html).toContain('<title>A &#38; B &#60;&#60;/script&#62;');
    expect(html).toContain('<meta name="description" content="&#34;quoted&#34; &#60;/script&#62;');
    expect(html).toContain(
      '<link rel="preload" as="image" href="/hero.webp"/><link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/campaign-abc.js">',
    );
  });

  it('inlines the payload as JSON that cannot end its block, and reads back unchanged', () => {
    const block = /<script type="application\/json" id="__CAMPAIGN_PAYLOAD__">([^<]*)<\/script>/.exec(html);
    expect(block).not.toBeNull();
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(JSON.parse(block?.[1] ?? '')).toEqual(parts.payload);
    expect(serializeInlinePayload(parts.payload)).not.toMatch(/[<>&\u2028]/);
  });

  it('holds its first paint until the whole page is parsed, so a slow parser never paints a page in pieces', () => {
    // A page painted while half parsed grows as the rest arrives: on a slow CPU the header's controls moved
    // (a layout shift on every load). The payload block follows `#root`, so it is parsed once the page is.
    const expectLink = `<link rel="expect" href="#${INLINE_PAYLOAD_ID}" blocking="render">`;
    expect(html.indexOf(expectLink)).toBeGreaterThan(-1);
    expect(html.indexOf(expectLink)).toBeLessThan(html.indexOf('</head>'));
    expect(html.indexOf(`id="${INLINE_PAYLOAD_ID}"`)).toBeGreaterThan(html.indexOf('<div id="root">'));
    expect(html.match(/rel="expect"/g)).toHaveLength(1);
  });

  it('writes the mode a page forces on <html>, and nothing for a page that forces none', () => {
    expect(html).toContain('<html>');
    expect(renderDocument(shell, { ...parts, colorMode: 'dark' })).toContain('<html data-color-mode="dark">');
  });

  it('fails the build loudly when the shell has nowhere to put the page', () => {
    expect(() => renderDocument('<html><head></head><body></body></html>', parts)).toThrow(/title/);
  });
});
