// @vitest-environment happy-dom
// build/firstPaint.ts: a prerendered page's first and largest paint wait for its HTML and its hero, nothing else.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_START_ID, appStartScript, arrangeForFirstPaint } from '../../build/firstPaint';
import { hashesOfHtml, sha256Source } from '../../server/plugins/inlineHashes';

const HERO =
  '<link rel="preload" as="image" imageSrcSet="/_ipx/s_320x180/a.jpg 320w, /_ipx/s_640x360/a.jpg 640w" imageSizes="calc(100vw - 34px)" fetchPriority="high"/>';
const CSS = '@layer reset{html{color:red}}.d_flex{display:flex}';

/** The shape `renderDocument` writes: Vite's head with the prerender's hints appended, the page in `#root`. */
const page = [
  '<!doctype html><html lang="en"><head>',
  '<meta charset="utf-8" />',
  '<meta name="viewport" content="width=device-width, initial-scale=1" />',
  '<title>A page</title>',
  '<script>window.boot = 1;</script>',
  '<script fetchpriority="low" type="module" crossorigin src="/assets/index-a.js"></script>',
  '<link fetchpriority="low" rel="modulepreload" crossorigin href="/assets/jsx-b.js">',
  '<link rel="stylesheet" crossorigin href="/assets/index-c.css">',
  '<link rel="preload" href="/api/session" as="fetch" crossorigin="anonymous">',
  `${HERO}<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/page-d.js">`,
  '<link rel="expect" href="#__CAMPAIGN_PAYLOAD__" blocking="render"></head>',
  '<body><div id="root"><main><h1>Hi</h1><img fetchpriority="high" src="/a.jpg"></main></div>',
  '<script type="application/json" id="__CAMPAIGN_PAYLOAD__">{}</script></body></html>',
].join('\n');

const STYLES = { '/assets/index-c.css': CSS };

describe('arrangeForFirstPaint', () => {
  const html = arrangeForFirstPaint(page, STYLES);
  const head = /<head>([\s\S]*)<\/head>/.exec(html)?.[1] ?? '';
  const template = new RegExp(`<template id="${APP_START_ID}">([\\s\\S]*?)</template>`).exec(html)?.[1] ?? '';

  it('puts the hero’s preload first, right after the viewport it reads its sizes against', () => {
    expect(head.indexOf(HERO)).toBeGreaterThan(head.indexOf('<meta name="viewport"'));
    expect(head.indexOf(HERO)).toBeLessThan(head.indexOf('<title>'));
    expect(html.split(HERO)).toHaveLength(2);
  });

  it('inlines the stylesheet, and marks it present with a link that is never fetched', () => {
    expect(head).toContain(
      `<style>${CSS}</style><link rel="stylesheet" href="/assets/index-c.css" disabled>`,
    );
    expect(html).not.toContain('<link rel="stylesheet" crossorigin');
  });

  it('moves the app’s scripts and the session preload into a template at the end of the body, in order', () => {
    expect(template).toBe(
      [
        '<script type="module" crossorigin src="/assets/index-a.js"></script>',
        '<link rel="modulepreload" crossorigin href="/assets/jsx-b.js">',
        '<link rel="preload" href="/api/session" as="fetch" crossorigin="anonymous">',
        '<link rel="modulepreload" crossorigin href="/assets/page-d.js">',
      ].join(''),
    );
    expect(head).not.toMatch(/type="module"|modulepreload|as="fetch"/);
    expect(html).toMatch(
      new RegExp(
        `id="__CAMPAIGN_PAYLOAD__">\\{\\}</script><template id="${APP_START_ID}">[\\s\\S]*</template><script>[^<]+</script></body>`,
      ),
    );
  });

  it('keeps everything else where it was: the inline scripts, the payload, the render-blocking link', () => {
    expect(head).toContain('<script>window.boot = 1;</script>');
    expect(head).toContain('<link rel="expect" href="#__CAMPAIGN_PAYLOAD__" blocking="render">');
    expect(html).toContain(
      '<div id="root"><main><h1>Hi</h1><img fetchpriority="high" src="/a.jpg"></main></div>',
    );
  });

  it('leaves nothing the strict CSP does not allow: the start script and the styles are hashed like the rest', () => {
    const { scriptHashes, styleHashes } = hashesOfHtml(html);
    expect(scriptHashes).toContain(sha256Source(appStartScript()));
    expect(scriptHashes).toContain(sha256Source('window.boot = 1;'));
    // The template's module script has a source: no hash, `'self'` allows it.
    expect(scriptHashes).toHaveLength(2);
    expect(styleHashes).toEqual([sha256Source(CSS)]);
  });

  it('leaves a page without a hero preload its order, and fails the build on a page it cannot arrange', () => {
    expect(arrangeForFirstPaint(page.replace(HERO, ''), STYLES)).not.toContain('as="image"');
    expect(() => arrangeForFirstPaint(page, {})).toThrow(/No text for the stylesheet \/assets\/index-c.css/);
    expect(() => arrangeForFirstPaint(page, { '/assets/index-c.css': 'a{}</style>' })).toThrow(/would end/);
    expect(() => arrangeForFirstPaint(page.replace(/<script fetchpriority[^\n]*/, ''), STYLES)).toThrow(
      /no module script/,
    );
    expect(() => arrangeForFirstPaint(page.replace(/<meta name="viewport"[^\n]*/, ''), STYLES)).toThrow(
      /viewport/,
    );
    expect(() => arrangeForFirstPaint(page.replace('</body>', ''), STYLES)).toThrow(/<\/body>/);
    expect(() => arrangeForFirstPaint('<html><body></body></html>', STYLES)).toThrow(/<head>/);
  });
});

/** The start script run in this document, with the browser APIs it uses under the test's control. */
describe('the start script', () => {
  let paintObservers: ((entries: { name: string }[]) => void)[];
  let tasks: { run: () => void; delay: number }[];
  let frames: (() => void)[];
  let decode: { resolve: () => void; reject: (error: Error) => void } | undefined;

  beforeEach(() => {
    paintObservers = [];
    tasks = [];
    frames = [];
    decode = undefined;
    document.head.innerHTML = '';
    document.body.innerHTML = [
      '<div id="root"><img fetchpriority="high" src="/a.jpg"></div>',
      `<template id="${APP_START_ID}"><link rel="modulepreload" href="/assets/a.js"><meta name="started"></template>`,
    ].join('');
    const img = document.querySelector('img') as HTMLImageElement;
    img.decode = () =>
      new Promise<void>((resolve, reject) => {
        decode = { resolve, reject };
      });
    class Observer {
      static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
      constructor(private readonly callback: (list: unknown) => void) {}
      observe({ type, buffered }: { type: string; buffered: boolean }) {
        // Buffered: a first paint before the script ran counts.
        expect({ type, buffered }).toEqual({ type: 'paint', buffered: true });
        paintObservers.push((entries) =>
          this.callback({
            getEntriesByName: (name: string) => entries.filter((entry) => entry.name === name),
          }),
        );
      }
    }
    vi.stubGlobal('PerformanceObserver', Observer);
    vi.stubGlobal('scheduler', {
      postTask: (run: () => void, { delay = 0 }: { delay?: number } = {}) => {
        tasks.push({ run, delay });
        return Promise.resolve();
      },
    });
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const start = () => new Function(appStartScript(2500))();
  const started = () => document.head.querySelectorAll('meta[name="started"]').length;
  /** Settles pending promises, then runs the tasks posted without a delay (the timeout stays pending). */
  const runTasks = async () => {
    await Promise.resolve();
    await Promise.resolve();
    const due = tasks.filter((task) => task.delay === 0);
    tasks = tasks.filter((task) => task.delay !== 0);
    for (const task of due) task.run();
  };
  const paint = (name = 'first-contentful-paint') => {
    for (const observer of [...paintObservers]) observer([{ name }]);
  };

  it('waits for both the first paint and the hero, then puts the template’s tags into <head> once', async () => {
    start();
    expect(tasks.map((t) => t.delay)).toEqual([2500]);
    paint('first-paint');
    paint();
    await runTasks();
    expect(started()).toBe(0);
    decode?.resolve();
    await runTasks();
    expect(started()).toBe(1);
    expect(document.head.querySelector('link[rel="modulepreload"]')?.getAttribute('href')).toBe(
      '/assets/a.js',
    );
    // The timeout that was to start it anyway finds it started.
    for (const task of tasks) task.run();
    paint();
    expect(started()).toBe(1);
  });

  it('starts after the first paint when the hero fails, and with the hero first, after the paint too', async () => {
    start();
    decode?.reject(new Error('EncodingError'));
    await runTasks();
    expect(started()).toBe(0);
    paint();
    await runTasks();
    expect(started()).toBe(1);
  });

  it('on a page without a hero, starts after the first paint', async () => {
    document.querySelector('img')?.remove();
    start();
    await runTasks();
    expect(started()).toBe(0);
    paint();
    await runTasks();
    expect(started()).toBe(1);
  });

  it('starts after the longest wait when neither comes (a hidden tab, a stalled image)', async () => {
    start();
    await runTasks();
    expect(started()).toBe(0);
    const [timeout] = tasks;
    expect(timeout?.delay).toBe(2500);
    timeout?.run();
    expect(started()).toBe(1);
  });

  it('without Paint Timing, counts a task after the next animation frame as the first paint', async () => {
    vi.stubGlobal(
      'PerformanceObserver',
      Object.assign(() => {}, { supportedEntryTypes: ['resource'] }),
    );
    document.querySelector('img')?.remove();
    start();
    expect(frames).toHaveLength(1);
    await runTasks();
    expect(started()).toBe(0);
    frames[0]?.();
    await runTasks();
    await runTasks();
    expect(started()).toBe(1);
  });
});
