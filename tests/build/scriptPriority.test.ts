// @vitest-environment node
// build/scriptPriority.ts: the JavaScript of a page that is already rendered waits behind its CSS and images.
import { describe, expect, it } from 'vitest';
import { lowerScriptPriority, scriptPriority } from '../../build/scriptPriority';

describe('lowerScriptPriority', () => {
  it('lowers the entry module script and every modulepreload', () => {
    const html = [
      '<script type="module" crossorigin src="/assets/index-a.js"></script>',
      '<link rel="modulepreload" crossorigin href="/assets/react-b.js">',
      '<link rel="stylesheet" crossorigin href="/assets/index-c.css">',
    ].join('\n');
    expect(lowerScriptPriority(html)).toBe(
      [
        '<script fetchpriority="low" type="module" crossorigin src="/assets/index-a.js"></script>',
        '<link fetchpriority="low" rel="modulepreload" crossorigin href="/assets/react-b.js">',
        '<link rel="stylesheet" crossorigin href="/assets/index-c.css">',
      ].join('\n'),
    );
  });

  it('leaves inline scripts, data blocks, other links and tags that already name a priority', () => {
    const html = [
      '<script>document.documentElement.dataset.boot = "1"</script>',
      '<script type="module">import "/x.js"</script>',
      '<script type="application/json" id="payload">{}</script>',
      '<link rel="preload" href="/api/session" as="fetch" crossorigin="anonymous">',
      '<link rel="preload" as="image" href="/hero.webp" fetchPriority="high"/>',
      '<link rel="modulepreload" fetchpriority="high" href="/assets/a.js">',
      '<link rel="icon" href="/favicon.svg">',
    ].join('\n');
    expect(lowerScriptPriority(html)).toBe(html);
  });

  it('applies to the built index.html only, after Vite has written its tags', () => {
    expect(scriptPriority()).toMatchObject({ apply: 'build', transformIndexHtml: { order: 'post' } });
  });
});
