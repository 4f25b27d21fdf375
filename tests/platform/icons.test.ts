import type { IconifyJSON } from '@iconify/types';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../../src/config';
import { createIconLoader, type IconFetchResponse, type IconLoaderOptions } from '../../src/platform/icons';

const BODY = '<path fill="none" stroke="currentColor" d="M3 12h18"/>';

function iconSet(prefix: string, names: readonly string[], extra: Partial<IconifyJSON> = {}): IconifyJSON {
  return {
    prefix,
    icons: Object.fromEntries(names.map((name) => [name, { body: BODY }])),
    width: 24,
    height: 24,
    ...extra,
  };
}

function json(body: unknown, status = 200): IconFetchResponse {
  return { ok: status >= 200 && status < 300, status, json: () => Promise.resolve(body) };
}

/** An answer the test gives later, or never. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface Call {
  url: string;
  signal: AbortSignal;
}

/**
 * A loader on a simulated clock (Vitest's fake timers), with a fetch that records its calls and answers with
 * `answer(url)`, and frames flushed by the test with `frame()`.
 */
function setup(
  answer: (url: string) => Promise<IconFetchResponse>,
  options: Partial<IconLoaderOptions> = {},
) {
  const calls: Call[] = [];
  const frames: (() => void)[] = [];
  const warnings: string[] = [];
  const loader = createIconLoader({
    ...config.icons,
    fetch: (url, init) => {
      calls.push({ url, signal: init.signal });
      return answer(url);
    },
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    scheduleBatch: (flush) => frames.push(flush),
    log: { warn: (message: string) => warnings.push(message) },
    ...options,
  });
  const changes = vi.fn();
  loader.subscribe(changes);
  const frame = () => {
    for (const flush of frames.splice(0)) flush();
  };
  return { loader, calls, frame, warnings, changes, urls: () => calls.map((call) => call.url) };
}

const LOCAL = '/api/_nuxt_icon';
const PUBLIC = 'https://api.iconify.design';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('icon loader: batching and caching', () => {
  it('sends the icons of one frame as one request per collection, in the spec’s path shape', async () => {
    const t = setup((url) => {
      const prefix = url.includes('/mdi.json') ? 'mdi' : 'lucide';
      return Promise.resolve(json(iconSet(prefix, ['house', 'user', 'home'])));
    });
    t.loader.request('lucide:house');
    t.loader.request('lucide:user');
    t.loader.request('mdi:home');
    expect(t.calls).toHaveLength(0);
    t.frame();
    expect(t.urls()).toEqual([`${LOCAL}/lucide.json?icons=house,user`, `${LOCAL}/mdi.json?icons=home`]);
    await vi.runAllTimersAsync();
    expect(t.loader.state('lucide:house')).toMatchObject({ status: 'loaded', data: { body: BODY } });
    expect(t.loader.state('mdi:home').status).toBe('loaded');
    expect(t.changes).toHaveBeenCalled();
  });

  it('asks once for an icon, however often and whenever it is requested', async () => {
    const answer = deferred<IconFetchResponse>();
    const t = setup(() => answer.promise);
    t.loader.request('lucide:house');
    t.loader.request('lucide:house');
    t.frame();
    t.loader.request('lucide:house');
    t.frame();
    expect(t.calls).toHaveLength(1);
    expect(t.loader.state('lucide:house').status).toBe('loading');
    answer.resolve(json(iconSet('lucide', ['house'])));
    await vi.runAllTimersAsync();
    t.loader.request('lucide:house');
    t.frame();
    expect(t.calls).toHaveLength(1);
    expect(t.loader.state('lucide:house')).toBe(t.loader.state('lucide:house'));
  });

  it('needs no request for preloaded (build-inlined) icons', () => {
    const t = setup(() => Promise.reject(new Error('no network')), {
      preloaded: [iconSet('lucide', ['house'], { aliases: { home: { parent: 'house' } } })],
    });
    expect(t.loader.state('lucide:house').status).toBe('loaded');
    expect(t.loader.state('lucide:home').status).toBe('loaded');
    t.loader.request('lucide:house');
    t.loader.request('lucide:home');
    t.frame();
    expect(t.calls).toHaveLength(0);
  });

  it('splits a long list so that no URL passes maxUrlLength', async () => {
    const names = Array.from({ length: 60 }, (_, i) => `icon-number-${i}`);
    const t = setup((url) =>
      Promise.resolve(
        json(
          iconSet(
            'lucide',
            names.filter((n) => url.includes(n)),
          ),
        ),
      ),
    );
    for (const name of names) t.loader.request(`lucide:${name}`);
    t.frame();
    expect(t.calls.length).toBeGreaterThan(1);
    for (const url of t.urls()) expect(`${PUBLIC}${url.slice(LOCAL.length)}`.length).toBeLessThanOrEqual(500);
    const asked = t.urls().flatMap((url) => (url.split('?icons=')[1] ?? '').split(','));
    expect(asked.sort()).toEqual([...names].sort());
    await vi.runAllTimersAsync();
    expect(names.every((name) => t.loader.state(`lucide:${name}`).status === 'loaded')).toBe(true);
  });

  it('treats a name that is not `prefix:name` as missing, without a request', () => {
    const t = setup(() => Promise.reject(new Error('unexpected')));
    for (const name of ['house', 'lucide:', 'Lucide:House', '@provider:lucide:house', 'lucide:a b']) {
      t.loader.request(name);
      expect(t.loader.state(name).status, name).toBe('missing');
    }
    t.frame();
    expect(t.calls).toHaveLength(0);
    expect(t.warnings).toHaveLength(5);
  });

  it('takes `not_found` from the endpoint as final: missing, and no fallback', async () => {
    const t = setup(() => Promise.resolve(json({ ...iconSet('lucide', ['house']), not_found: ['nope'] })));
    t.loader.request('lucide:house');
    t.loader.request('lucide:nope');
    t.frame();
    await vi.runAllTimersAsync();
    expect(t.loader.state('lucide:house').status).toBe('loaded');
    expect(t.loader.state('lucide:nope').status).toBe('missing');
    expect(t.calls).toHaveLength(1);
  });
});

describe('icon loader: timeout and fallback', () => {
  it('asks the public API when the endpoint has not answered after 1500 ms, and aborts the first request', async () => {
    const t = setup((url) =>
      url.startsWith(PUBLIC) ? Promise.resolve(json(iconSet('lucide', ['house']))) : new Promise(() => {}),
    );
    t.loader.request('lucide:house');
    t.frame();
    await vi.advanceTimersByTimeAsync(config.icons.fetchTimeoutMs - 1);
    expect(t.urls()).toEqual([`${LOCAL}/lucide.json?icons=house`]);
    expect(t.loader.state('lucide:house').status).toBe('loading');
    await vi.advanceTimersByTimeAsync(1);
    expect(t.urls()).toEqual([`${LOCAL}/lucide.json?icons=house`, `${PUBLIC}/lucide.json?icons=house`]);
    expect(t.calls[0]?.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.loader.state('lucide:house').status).toBe('loaded');
    expect(t.warnings[0]).toMatch(/timed out after 1500ms; asking https:\/\/api\.iconify\.design instead/);
  });

  it('ignores the endpoint’s late answer once the fallback has answered', async () => {
    const late = deferred<IconFetchResponse>();
    const t = setup((url) =>
      url.startsWith(PUBLIC) ? Promise.resolve(json(iconSet('lucide', ['house']))) : late.promise,
    );
    t.loader.request('lucide:house');
    t.frame();
    await vi.advanceTimersByTimeAsync(config.icons.fetchTimeoutMs);
    const loaded = t.loader.state('lucide:house');
    expect(loaded.status).toBe('loaded');
    late.resolve(json({ prefix: 'lucide', icons: {}, not_found: ['house'] }));
    await vi.runAllTimersAsync();
    expect(t.loader.state('lucide:house')).toBe(loaded);
  });

  const failures: [string, () => Promise<IconFetchResponse>][] = [
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch'))],
    [
      'a non-JSON answer',
      () => Promise.resolve({ ok: true, status: 200, json: () => Promise.reject(new SyntaxError('<')) }),
    ],
    ['HTTP 500', () => Promise.resolve(json({ message: 'boom' }, 500))],
    ['HTTP 404 (no dead end, unlike nuxt/icon)', () => Promise.resolve(json({ message: 'no' }, 404))],
    ['JSON that is no icon set', () => Promise.resolve(json({ hello: 'world' }))],
    ['an icon set of another prefix', () => Promise.resolve(json(iconSet('mdi', ['house'])))],
  ];
  for (const [what, fail] of failures) {
    it(`falls back at once on ${what}`, async () => {
      const t = setup((url) =>
        url.startsWith(PUBLIC) ? Promise.resolve(json(iconSet('lucide', ['house']))) : fail(),
      );
      t.loader.request('lucide:house');
      t.frame();
      await vi.advanceTimersByTimeAsync(0);
      expect(t.urls()).toEqual([`${LOCAL}/lucide.json?icons=house`, `${PUBLIC}/lucide.json?icons=house`]);
      expect(t.loader.state('lucide:house').status).toBe('loaded');
    });
  }

  it('shows the icon as missing when both fail, without throwing or rejecting', async () => {
    const t = setup(() => Promise.reject(new TypeError('Failed to fetch')));
    t.loader.request('lucide:house');
    t.frame();
    await vi.runAllTimersAsync();
    expect(t.calls).toHaveLength(2);
    expect(t.loader.state('lucide:house').status).toBe('missing');
    expect(t.changes).toHaveBeenCalledTimes(1);
    expect(t.warnings.at(-1)).toMatch(/failed to load lucide:house/);
    t.loader.request('lucide:house');
    t.frame();
    expect(t.calls).toHaveLength(2);
  });

  it('gives up after 1500 ms on each of the two requests', async () => {
    const t = setup(() => new Promise(() => {}));
    t.loader.request('lucide:house');
    t.frame();
    await vi.advanceTimersByTimeAsync(config.icons.fetchTimeoutMs);
    expect(t.calls).toHaveLength(2);
    expect(t.loader.state('lucide:house').status).toBe('loading');
    await vi.advanceTimersByTimeAsync(config.icons.fetchTimeoutMs);
    expect(t.loader.state('lucide:house').status).toBe('missing');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses an icon body that is not the SVG subset Iconify writes', async () => {
    // `<image/onerror=...>` got past the old blocklist, which looked for a space before `on...=` (regression).
    const set: IconifyJSON = {
      prefix: 'lucide',
      icons: {
        bad: { body: '<image href="x" onerror="alert(1)"/>' },
        slash: { body: '<image/onerror="alert(1)" href="x"/>' },
        comment: { body: '<!-- x --><path d="M0 0"/>' },
      },
    };
    const t = setup(() => Promise.resolve(json(set)));
    for (const name of ['bad', 'slash', 'comment']) t.loader.request(`lucide:${name}`);
    t.frame();
    await vi.runAllTimersAsync();
    expect(t.loader.state('lucide:slash').status).toBe('missing');
    expect(t.loader.state('lucide:comment').status).toBe('missing');
    // Well-formed: loaded, and <Icon> renders none of the image or its handler (see the <Icon> tests).
    expect(t.loader.state('lucide:bad').status).toBe('loaded');
  });
});

describe('<Icon>', () => {
  // The component uses the page's loader, which reads the global fetch and animation frames.
  async function render(element: ReturnType<typeof createElement>) {
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    await act(async () => root.render(element));
    return { container, root };
  }

  it('keeps a box of its size while loading and when the icon cannot be had, then shows the SVG', async () => {
    vi.useRealTimers();
    const answers: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        answers.push(url);
        return Promise.resolve(new Response(JSON.stringify(iconSet('testicons', ['star'])), { status: 200 }));
      }),
    );
    const { Icon } = await import('../../src/ui/Icon.tsx');
    const { container, root } = await render(
      createElement('div', null, [
        createElement(Icon, { key: 'a', name: 'testicons:star', size: 24, label: 'Favourite' }),
        createElement(Icon, { key: 'b', name: 'testicons:star', size: '2rem' }),
      ]),
    );
    const [labelled, decorative] = [...container.querySelectorAll('span[data-icon]')] as HTMLElement[];
    expect(labelled?.getAttribute('role')).toBe('img');
    expect(labelled?.getAttribute('aria-label')).toBe('Favourite');
    expect(labelled?.style.width).toBe('24px');
    expect(labelled?.style.height).toBe('24px');
    expect(decorative?.getAttribute('aria-hidden')).toBe('true');
    expect(decorative?.hasAttribute('role')).toBe(false);
    expect(decorative?.style.width).toBe('2rem');

    // The loader is a chunk of its own (./IconLoaded.tsx), imported on first need: give it time to arrive.
    await vi.waitFor(() => expect(labelled?.dataset.state).toBe('loaded'), { timeout: 5000 });
    expect(answers).toEqual(['/api/_nuxt_icon/testicons.json?icons=star']);
    expect(labelled?.querySelector('svg')?.getAttribute('viewBox')).toBe('0 0 24 24');
    expect(labelled?.querySelector('svg path')).not.toBeNull();
    await act(async () => root.unmount());
    vi.unstubAllGlobals();
  });

  it('renders the body from its allow-listed tree: no element or attribute that could run script (regression)', async () => {
    // The body used to go in as markup behind a blocklist.
    vi.useRealTimers();
    const body =
      '<image href="x" onerror="alert(1)"/><g fill="none" onclick="alert(2)"><path d="M4 4h16" stroke-width="2"/></g>';
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(
            JSON.stringify({ prefix: 'unsafeicons', icons: { x: { body } }, width: 24, height: 24 }),
          ),
        ),
      ),
    );
    const { Icon } = await import('../../src/ui/Icon.tsx');
    const { container, root } = await render(createElement(Icon, { name: 'unsafeicons:x', size: 24 }));
    const box = container.querySelector('span[data-icon]') as HTMLElement;
    await vi.waitFor(() => expect(box.dataset.state).toBe('loaded'));
    const svg = box.querySelector('svg');
    expect(svg?.querySelector('image')).toBeNull();
    expect(svg?.querySelector('g')?.getAttribute('fill')).toBe('none');
    expect(svg?.querySelector('g path')?.getAttribute('stroke-width')).toBe('2');
    expect(
      [...(svg?.querySelectorAll('*') ?? [])].flatMap((element) => element.getAttributeNames()),
    ).not.toContain('onclick');
    await act(async () => root.unmount());
    vi.unstubAllGlobals();
  });
});

describe('icon loader: names and preloaded sets', () => {
  it('refuses a name with a provider or more than one colon, and says which name and why', () => {
    const t = setup(() => Promise.reject(new Error('unexpected')));
    t.loader.request('lucide:house:extra');
    t.frame();
    expect(t.loader.state('lucide:house:extra').status).toBe('missing');
    expect(t.calls).toHaveLength(0);
    expect(t.warnings).toEqual(['[Icon] "lucide:house:extra" is not an icon name like "lucide:house".']);
  });

  it('takes a preloaded icon only from the set of its own prefix', () => {
    const t = setup(() => new Promise(() => {}), { preloaded: [iconSet('mdi', ['house'])] });
    expect(t.loader.state('lucide:house').status).toBe('loading');
    t.loader.request('lucide:house');
    t.frame();
    expect(t.urls()).toEqual([`${LOCAL}/lucide.json?icons=house`]);
  });

  it('asks the network for an icon its preloaded collection lacks', () => {
    const t = setup(() => new Promise(() => {}), { preloaded: [iconSet('lucide', ['house'])] });
    expect(t.loader.state('lucide:user').status).toBe('loading');
    t.loader.request('lucide:user');
    t.frame();
    expect(t.urls()).toEqual([`${LOCAL}/lucide.json?icons=user`]);
  });

  it('gives a preloaded icon the same state object every time, as useSyncExternalStore needs', () => {
    const t = setup(() => new Promise(() => {}), { preloaded: [iconSet('lucide', ['house'])] });
    const first = t.loader.state('lucide:house');
    expect(first).toMatchObject({ status: 'loaded', data: { body: BODY } });
    expect(t.loader.state('lucide:house')).toBe(first);
  });
});

describe('icon loader: frames', () => {
  it('schedules one flush per frame, and a later frame sends only what was asked since', async () => {
    const flushes: (() => void)[] = [];
    const scheduleBatch = vi.fn((flush: () => void) => {
      flushes.push(flush);
    });
    const t = setup(
      (url) => Promise.resolve(json(iconSet('lucide', url.includes('user') ? ['user'] : ['house']))),
      { scheduleBatch },
    );
    t.loader.request('lucide:house');
    t.loader.request('mdi:home');
    expect(scheduleBatch).toHaveBeenCalledTimes(1);
    flushes.shift()?.();
    t.loader.request('lucide:user');
    expect(scheduleBatch).toHaveBeenCalledTimes(2);
    flushes.shift()?.();
    expect(t.urls()).toEqual([
      `${LOCAL}/lucide.json?icons=house`,
      `${LOCAL}/mdi.json?icons=home`,
      `${LOCAL}/lucide.json?icons=user`,
    ]);
    await vi.runAllTimersAsync();
    expect(t.loader.state('lucide:user').status).toBe('loaded');
  });

  it('tells every listener once per answered request, and no longer one that unsubscribed', async () => {
    const t = setup((url) =>
      Promise.resolve(json(iconSet('lucide', [url.includes('user') ? 'user' : 'house']))),
    );
    const other = vi.fn();
    const unsubscribe = t.loader.subscribe(other);
    t.loader.request('lucide:house');
    t.frame();
    await vi.runAllTimersAsync();
    expect(t.changes).toHaveBeenCalledTimes(1);
    expect(other).toHaveBeenCalledTimes(1);
    unsubscribe();
    t.loader.request('lucide:user');
    t.frame();
    await vi.runAllTimersAsync();
    expect(t.changes).toHaveBeenCalledTimes(2);
    expect(other).toHaveBeenCalledTimes(1);
  });
});

describe('icon loader: URL length', () => {
  /** The URL of `names` to `base`, as the loader writes it. */
  const url = (base: string, names: readonly string[]) => `${base}/lucide.json?icons=${names.join(',')}`;
  const asked = (urls: readonly string[]) => urls.map((u) => (u.split('?icons=')[1] ?? '').split(','));

  it('fills a request up to exactly maxUrlLength, measured on the longer fallback URL', () => {
    const t = setup(() => new Promise(() => {}), { maxUrlLength: url(PUBLIC, ['aa', 'bb']).length });
    for (const name of ['aa', 'bb', 'cc']) t.loader.request(`lucide:${name}`);
    t.frame();
    expect(asked(t.urls())).toEqual([['aa', 'bb'], ['cc']]);
  });

  it('measures on the endpoint when the endpoint is the longer of the two', () => {
    const endpoint = 'https://icons.example/a/much/longer/path/than/the/fallback';
    const fallback = 'https://fb.example';
    const t = setup(() => new Promise(() => {}), {
      endpoint,
      fallbackEndpoint: fallback,
      maxUrlLength: url(endpoint, ['aa', 'bb']).length,
    });
    for (const name of ['aa', 'bb', 'cc']) t.loader.request(`lucide:${name}`);
    t.frame();
    expect(asked(t.urls())).toEqual([['aa', 'bb'], ['cc']]);
  });

  it('sends a name too long for any URL on its own, never an empty request', () => {
    const long = 'x'.repeat(40);
    const t = setup(() => new Promise(() => {}), { maxUrlLength: url(PUBLIC, ['a']).length });
    t.loader.request(`lucide:${long}`);
    t.loader.request('lucide:a');
    t.frame();
    expect(asked(t.urls())).toEqual([[long], ['a']]);
  });
});

describe('icon loader: what the log says', () => {
  const answers: [string, () => Promise<IconFetchResponse>, string][] = [
    ['a network error', () => Promise.reject(new TypeError('Failed to fetch')), 'TypeError: Failed to fetch'],
    [
      'a non-JSON answer',
      () => Promise.resolve({ ok: true, status: 200, json: () => Promise.reject(new SyntaxError('<')) }),
      `${LOCAL}/lucide.json?icons=house did not answer JSON`,
    ],
    ['HTTP 503', () => Promise.resolve(json({}, 503)), `${LOCAL}/lucide.json?icons=house answered 503`],
    // Response.json() never gives undefined, but the loader takes any fetch that keeps to IconFetchResponse.
    [
      'undefined',
      () => Promise.resolve(json(undefined)),
      `${LOCAL}/lucide.json?icons=house did not answer an icon set`,
    ],
    [
      'null',
      () => Promise.resolve(json(null)),
      `${LOCAL}/lucide.json?icons=house did not answer an icon set`,
    ],
    [
      'a string',
      () => Promise.resolve(json('lucide')),
      `${LOCAL}/lucide.json?icons=house did not answer an icon set`,
    ],
    [
      'a set whose icons are null',
      () => Promise.resolve(json({ prefix: 'lucide', icons: null })),
      `${LOCAL}/lucide.json?icons=house did not answer an icon set`,
    ],
    [
      'a set whose icons are not an object',
      () => Promise.resolve(json({ prefix: 'lucide', icons: 'house' })),
      `${LOCAL}/lucide.json?icons=house did not answer an icon set`,
    ],
  ];
  for (const [what, fail, reason] of answers) {
    it(`names the reason when the endpoint gives ${what}, then asks the public API`, async () => {
      const t = setup((u) =>
        u.startsWith(PUBLIC) ? Promise.resolve(json(iconSet('lucide', ['house']))) : fail(),
      );
      t.loader.request('lucide:house');
      t.frame();
      await vi.runAllTimersAsync();
      expect(t.warnings).toEqual([`[Icon] ${reason}; asking ${PUBLIC} instead.`]);
      expect(t.loader.state('lucide:house').status).toBe('loaded');
    });
  }

  it('names every icon of a request that both endpoints failed, and the last reason', async () => {
    const t = setup((u) => Promise.resolve(json({}, u.startsWith(PUBLIC) ? 502 : 500)));
    t.loader.request('lucide:house');
    t.loader.request('lucide:user');
    t.frame();
    await vi.runAllTimersAsync();
    expect(t.warnings).toEqual([
      `[Icon] ${LOCAL}/lucide.json?icons=house,user answered 500; asking ${PUBLIC} instead.`,
      `[Icon] failed to load lucide:house, lucide:user: ${PUBLIC}/lucide.json?icons=house,user answered 502`,
    ]);
    expect(t.loader.state('lucide:user').status).toBe('missing');
  });

  it('writes the timeout into the warning', async () => {
    const t = setup(() => new Promise(() => {}), { fetchTimeoutMs: 700 });
    t.loader.request('lucide:house');
    t.frame();
    await vi.advanceTimersByTimeAsync(700);
    expect(t.warnings).toEqual([
      `[Icon] ${LOCAL}/lucide.json?icons=house timed out after 700ms; asking ${PUBLIC} instead.`,
    ]);
  });

  it('stops the timeout of a request that answered: nothing is aborted or asked later', async () => {
    const t = setup(() => Promise.resolve(json(iconSet('lucide', ['house']))));
    t.loader.request('lucide:house');
    t.frame();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.loader.state('lucide:house').status).toBe('loaded');
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(config.icons.fetchTimeoutMs * 2);
    expect(t.calls).toHaveLength(1);
    expect(t.calls[0]?.signal.aborted).toBe(false);
    expect(t.warnings).toEqual([]);
  });
});
