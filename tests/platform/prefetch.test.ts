// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { importPage, loadPage } from '../../src/pages/registry';
import {
  type BuildPayloads,
  canPrefetch,
  connectPrefetch,
  createPageDataCache,
  type ManifestSource,
  pageDataCache,
  pageDataKey,
  prefetchPath,
} from '../../src/platform/prefetch';

function clock(start = 0) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A build manifest that has arrived (or failed: `prerendered` null), or, without `settled`, is on its way. */
function manifest(settled?: BuildPayloads) {
  let known = settled;
  let arrive: (payloads: BuildPayloads) => void = () => {};
  const arrival = new Promise<BuildPayloads>((resolve) => {
    arrive = resolve;
  });
  const asked: boolean[] = [];
  const source: ManifestSource = {
    settled: () => known,
    whenSettled: (now) => {
      asked.push(now);
      return arrival;
    },
  };
  return {
    source,
    /** Each wait, and whether it asked for the manifest at once. */
    asked,
    settle(payloads: BuildPayloads) {
      known = payloads;
      arrive(payloads);
    },
  };
}

/** The manifest failed: nothing is known to be prerendered, so every page's data is its loader's. */
const noManifest = manifest({ prerendered: null, buildId: 'b0' }).source;

function respond(body: unknown): Response {
  return Response.json(body, { headers: { 'content-type': 'application/json' } });
}

const urlsOf = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map((call) => String(call[0]));

describe('page-data cache', () => {
  it('serves a prefetch once, then the navigation after it loads on its own', async () => {
    const time = clock();
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: time.now });
    const load = vi.fn(async () => ({ id: 1 }));
    cache.prefetch('/campaign/1', load);
    cache.prefetch('/campaign/1', load);
    expect(load).toHaveBeenCalledTimes(1);
    await expect(cache.take('/campaign/1')).resolves.toEqual({ id: 1 });
    expect(cache.take('/campaign/1')).toBeUndefined();
  });

  it('hands a running request to the navigation that takes it: superseding that navigation cancels it', () => {
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: clock().now });
    let prefetchSignal: AbortSignal | undefined;
    cache.prefetch('/a', (signal) => {
      prefetchSignal = signal;
      return new Promise(() => undefined);
    });
    const navigation = new AbortController();
    // Taken, never awaited: the request never answers, and what matters is its signal.
    void cache.take('/a', navigation.signal);
    expect(prefetchSignal?.aborted).toBe(false);
    navigation.abort();
    expect(prefetchSignal?.aborted).toBe(true);
  });

  it('never serves an entry older than its freshness window', () => {
    const time = clock();
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: time.now });
    cache.put('/a', 1);
    time.advance(999);
    expect(cache.has('/a')).toBe(true);
    time.advance(1);
    expect(cache.take('/a')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the oldest and cancelling its request', () => {
    const time = clock();
    const cache = createPageDataCache({ maxEntries: 2, freshMs: 10_000, now: time.now });
    const signals: AbortSignal[] = [];
    for (const key of ['/1', '/2', '/3']) {
      cache.prefetch(key, (signal) => {
        signals.push(signal);
        return new Promise(() => undefined);
      });
    }
    expect(cache.size).toBe(2);
    expect(cache.has('/1')).toBe(false);
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false, false]);
  });

  it('forgets a failed prefetch, without an unhandled rejection', async () => {
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: clock().now });
    cache.prefetch('/a', async () => {
      throw new Error('offline');
    });
    cache.prefetch('/b', () => {
      throw new Error('synchronous');
    });
    await flush();
    expect(cache.has('/a')).toBe(false);
    expect(cache.has('/b')).toBe(false);
  });

  it('empties when the viewer changes (sign-in, sign-out), not when the same one is seen again', () => {
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: clock().now });
    cache.setViewer(null);
    cache.put('/a', 1);
    cache.setViewer(null);
    expect(cache.has('/a')).toBe(true);
    cache.setViewer('7');
    expect(cache.has('/a')).toBe(false);
  });

  it('keys by path and query, never the fragment', () => {
    expect(pageDataKey('/campaign/1?x=1#about')).toBe('/campaign/1?x=1');
    expect(pageDataKey('/')).toBe('/');
  });
});

describe('when prefetching is allowed', () => {
  it('not with Save-Data or on a 2G-class connection', () => {
    expect(canPrefetch(undefined)).toBe(true);
    expect(canPrefetch({ effectiveType: '4g' })).toBe(true);
    expect(canPrefetch({ effectiveType: '3g' })).toBe(true);
    expect(canPrefetch({ effectiveType: '2g' })).toBe(false);
    expect(canPrefetch({ effectiveType: 'slow-2g' })).toBe(false);
    expect(canPrefetch({ effectiveType: '4g', saveData: true })).toBe(false);
  });
});

describe('prefetchPath and loadPage', () => {
  // The campaign page's code first: on a busy machine its first import alone can outlast both the test's
  // timeout and the prefetched data's freshness window, which the tests below would then misread.
  beforeAll(() => importPage('campaign'), 60_000);
  connectPrefetch(importPage);
  afterEach(() => pageDataCache.clear());

  it("never fetches a guarded page's data for a signed-out visitor", async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    prefetchPath('/home', { signedIn: false, data: 'any', manifest: noManifest });
    prefetchPath('/profile', { signedIn: false, data: 'any', manifest: noManifest });
    await flush();
    expect(pageDataCache.has('/home')).toBe(false);
    expect(pageDataCache.has('/profile')).toBe(false);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('fetches nothing for a path that matches no route or fails its validate rule', () => {
    prefetchPath('/campaign/01', { signedIn: true, data: 'any', manifest: noManifest });
    prefetchPath('/nowhere', { signedIn: true, data: 'any', manifest: noManifest });
    prefetchPath('https://elsewhere.example/', { signedIn: true, data: 'any', manifest: noManifest });
    expect(pageDataCache.size).toBe(0);
  });

  it('starts loading the data of a public page on intent, and loadPage uses it', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () =>
        Response.json(
          { campaign: { id: 3, title: 'Prefetched' } },
          { headers: { 'content-type': 'application/json' } },
        ),
      );
    prefetchPath('/campaign/3#top', { signedIn: false, data: 'any', manifest: noManifest });
    expect(pageDataCache.has('/campaign/3')).toBe(true);
    const actorInput = { route: 'campaign' as const, params: { id: '3' }, fullPath: '/campaign/3#top' };
    const loaded = await (
      loadPage as unknown as { config: (args: unknown) => Promise<{ data: unknown }> }
    ).config({
      input: actorInput,
      signal: new AbortController().signal,
    });
    expect(loaded.data).toEqual({ id: 3, title: 'Prefetched' });
    expect(fetchSpy).toHaveBeenCalledTimes(1);
  });

  it('loads the data itself when the prefetch failed', async () => {
    let calls = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return Response.json({ campaign: { id: 4, title: 'Second try' } });
    });
    prefetchPath('/campaign/4', { signedIn: false, data: 'any', manifest: noManifest });
    await flush();
    const loaded = await (
      loadPage as unknown as { config: (args: unknown) => Promise<{ data: unknown }> }
    ).config({
      input: { route: 'campaign', params: { id: '4' }, fullPath: '/campaign/4' },
      signal: new AbortController().signal,
    });
    expect(loaded.data).toEqual({ id: 4, title: 'Second try' });
    expect(calls).toBe(2);
  });
});

describe('which data a prefetch warms: the payload of a prerendered page, the API only on intent', () => {
  connectPrefetch(importPage);
  afterEach(() => {
    pageDataCache.clear();
    vi.restoreAllMocks();
  });

  it('a link on screen to a prerendered page warms its payload, never the API', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => respond({ buildId: 'v1', path: '/campaign/1', data: { id: 1 } }));
    const build = manifest({ prerendered: ['/', '/campaign/1'], buildId: 'v1' });
    prefetchPath('/campaign/1', { signedIn: false, data: 'payload', manifest: build.source });
    await flush();
    expect(urlsOf(fetchSpy)).toEqual(['/campaign/1/_payload.json?v1']);
    expect(pageDataCache.size).toBe(0);
    expect(build.asked).toEqual([]);
  });

  it('a link on screen to a page without a payload gets its code only, even when the manifest failed', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const build = manifest({ prerendered: ['/'], buildId: 'v2' });
    prefetchPath('/campaign/7', { signedIn: false, data: 'payload', manifest: build.source });
    prefetchPath('/campaign/8', { signedIn: false, data: 'payload', manifest: noManifest });
    prefetchPath('/', { signedIn: false, data: 'none', manifest: build.source });
    await flush();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(pageDataCache.size).toBe(0);
  });

  it('a link on screen seen before the manifest waits for its preload, asking for nothing meanwhile', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => respond({ buildId: 'v3', path: '/campaign/2', data: { id: 2 } }));
    const build = manifest();
    prefetchPath('/campaign/2', { signedIn: false, data: 'payload', manifest: build.source });
    prefetchPath('/campaign/9', { signedIn: false, data: 'payload', manifest: build.source });
    await flush();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(build.asked).toEqual([false, false]);
    build.settle({ prerendered: ['/campaign/2'], buildId: 'v3' });
    await flush();
    expect(urlsOf(fetchSpy)).toEqual(['/campaign/2/_payload.json?v3']);
    expect(pageDataCache.size).toBe(0);
  });

  it('intent before the manifest asks for it at once, then takes the payload of a prerendered page', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => respond({ buildId: 'v4', path: '/login' }));
    const build = manifest();
    prefetchPath('/login', { signedIn: false, data: 'any', manifest: build.source });
    await flush();
    expect(build.asked).toEqual([true]);
    expect(fetchSpy).not.toHaveBeenCalled();
    build.settle({ prerendered: ['/login'], buildId: 'v4' });
    await flush();
    expect(urlsOf(fetchSpy)).toEqual(['/login/_payload.json?v4']);
    expect(pageDataCache.size).toBe(0);
  });

  it('intent on a page the manifest gives no payload loads its data from the API, which the navigation takes', async () => {
    const fetchSpy = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => respond({ campaign: { id: 9, title: 'After the build' } }));
    const build = manifest();
    prefetchPath('/campaign/9', { signedIn: false, data: 'any', manifest: build.source });
    await flush();
    expect(pageDataCache.has('/campaign/9')).toBe(false);
    build.settle({ prerendered: ['/campaign/1'], buildId: 'v5' });
    await flush();
    expect(pageDataCache.has('/campaign/9')).toBe(true);
    const loaded = await (
      loadPage as unknown as { config: (args: unknown) => Promise<{ data: unknown }> }
    ).config({
      input: { route: 'campaign', params: { id: '9' }, fullPath: '/campaign/9' },
      signal: new AbortController().signal,
    });
    expect(loaded.data).toEqual({ id: 9, title: 'After the build' });
    expect(urlsOf(fetchSpy)).toEqual(['/api/campaigns/9']);
  });
});

describe('page-data cache: order, cancelling and viewers', () => {
  /** A load the test settles, with the signal it was given. */
  function controlled() {
    let resolve: (value: unknown) => void = () => {};
    let reject: (error: unknown) => void = () => {};
    let signal: AbortSignal | undefined;
    const load = (given: AbortSignal) => {
      signal = given;
      return new Promise((res, rej) => {
        resolve = res;
        reject = rej;
      });
    };
    return {
      load,
      resolve: (v: unknown) => resolve(v),
      reject: (e: unknown) => reject(e),
      signal: () => signal,
    };
  }

  it('loads again once the first prefetch has gone stale', () => {
    const time = clock();
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: time.now });
    const load = vi.fn(() => new Promise(() => undefined));
    cache.prefetch('/a', load);
    time.advance(1000);
    cache.prefetch('/a', load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(cache.has('/a')).toBe(true);
  });

  it('counts a key put again as the newest, so an older one goes first', () => {
    const cache = createPageDataCache({ maxEntries: 2, freshMs: 10_000, now: clock().now });
    cache.put('/a', 1);
    cache.put('/b', 2);
    cache.put('/a', 3);
    cache.put('/c', 4);
    expect(cache.has('/a')).toBe(true);
    expect(cache.has('/b')).toBe(false);
    expect(cache.size).toBe(2);
  });

  it('keeps newer data under a key when an older request for it fails', async () => {
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: clock().now });
    const old = controlled();
    cache.prefetch('/a', old.load);
    cache.put('/a', 'payload');
    old.reject(new Error('offline'));
    await flush();
    await expect(cache.take('/a')).resolves.toBe('payload');
  });

  it('cancels only requests still running when entries go (eviction, viewer change, clear)', async () => {
    const time = clock();
    const cache = createPageDataCache({ maxEntries: 1, freshMs: 1000, now: time.now });
    const done = controlled();
    cache.prefetch('/done', done.load);
    done.resolve(1);
    await flush();
    cache.prefetch('/next', () => new Promise(() => undefined));
    expect(cache.has('/done')).toBe(false);
    expect(done.signal()?.aborted).toBe(false);

    const running = controlled();
    cache.setViewer('7');
    cache.prefetch('/running', running.load);
    cache.setViewer(null);
    expect(running.signal()?.aborted).toBe(true);
    expect(cache.size).toBe(0);

    const cleared = controlled();
    cache.prefetch('/cleared', cleared.load);
    cache.clear();
    expect(cleared.signal()?.aborted).toBe(true);
    expect(cache.size).toBe(0);
  });

  it('cancels at once a request taken by a navigation that was already superseded', () => {
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: clock().now });
    const running = controlled();
    cache.prefetch('/a', running.load);
    const navigation = new AbortController();
    navigation.abort();
    // Taken, never awaited: the request never answers, and what matters is its signal.
    void cache.take('/a', navigation.signal);
    expect(running.signal()?.aborted).toBe(true);
  });

  it('leaves a request that has answered alone when its navigation is superseded', async () => {
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: clock().now });
    const answered = controlled();
    cache.prefetch('/a', answered.load);
    answered.resolve(1);
    await flush();
    const first = new AbortController();
    // Not awaited: the navigation is superseded while it holds the answered request.
    void cache.take('/a', first.signal);
    first.abort();
    expect(answered.signal()?.aborted).toBe(false);

    const later = controlled();
    cache.prefetch('/b', later.load);
    const second = new AbortController();
    const data = cache.take('/b', second.signal);
    later.resolve(2);
    await data;
    second.abort();
    expect(later.signal()?.aborted).toBe(false);
  });

  it('leaves a request that has failed alone when its navigation is superseded', async () => {
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: clock().now });
    const failing = controlled();
    cache.prefetch('/a', failing.load);
    const navigation = new AbortController();
    const data = cache.take('/a', navigation.signal);
    failing.reject(new Error('offline'));
    await expect(data).rejects.toThrow('offline');
    navigation.abort();
    expect(failing.signal()?.aborted).toBe(false);
  });

  it('keeps its entries when it learns the first viewer, and when the same one is seen again', () => {
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: clock().now });
    cache.put('/a', 1);
    cache.setViewer('7');
    cache.setViewer('7');
    expect(cache.has('/a')).toBe(true);
    cache.setViewer(null);
    expect(cache.has('/a')).toBe(false);
  });

  it('drops data put past the limit, or before a viewer change or a clear, in the same tick', () => {
    // A put has no request to cancel, even before its promise has settled.
    const cache = createPageDataCache({ maxEntries: 1, freshMs: 1000, now: clock().now });
    cache.put('/a', 1);
    expect(() => cache.put('/b', 2)).not.toThrow();
    expect(cache.has('/a')).toBe(false);
    cache.setViewer('7');
    cache.put('/c', 3);
    expect(() => cache.setViewer(null)).not.toThrow();
    cache.put('/d', 4);
    expect(() => cache.clear()).not.toThrow();
    expect(cache.size).toBe(0);
  });

  it('hands put data to a navigation that is already superseded', async () => {
    const cache = createPageDataCache({ maxEntries: 4, freshMs: 1000, now: clock().now });
    cache.put('/a', 1);
    const navigation = new AbortController();
    navigation.abort();
    await expect(cache.take('/a', navigation.signal)).resolves.toBe(1);
  });

  it('keys a path that is all fragment as the empty path', () => {
    expect(pageDataKey('#top')).toBe('');
  });
});

describe('prefetchPath with a page importer', () => {
  const signedOut = { signedIn: false, data: 'any', manifest: noManifest } as const;

  function page(
    loader?: (args: { params: Record<string, string>; fullPath: string; signal: AbortSignal }) => unknown,
  ) {
    const importer = vi.fn(async () => (loader ? { loader: vi.fn(async (args) => loader(args)) } : {}));
    connectPrefetch(importer as unknown as Parameters<typeof connectPrefetch>[0]);
    return importer;
  }
  afterEach(() => {
    pageDataCache.clear();
    connectPrefetch(importPage);
    vi.unstubAllGlobals();
  });

  it('asks the importer for the route’s code as a prefetch', () => {
    const importer = page();
    prefetchPath('/login', { ...signedOut, data: 'none' });
    expect(importer).toHaveBeenCalledWith('login', { prefetch: true });
  });

  it.each([
    ['Save-Data', { connection: { saveData: true } }],
    ['a 2G connection', { connection: { effectiveType: '2g' } }],
    ['no navigator at all', undefined],
  ])('fetches not even the code with %s', (_, navigatorStub) => {
    vi.stubGlobal('navigator', navigatorStub);
    const importer = page(() => 1);
    prefetchPath('/campaign/1', signedOut);
    expect(importer).not.toHaveBeenCalled();
    expect(pageDataCache.size).toBe(0);
  });

  it('fetches not even the code of a path its validate rule refuses', () => {
    const importer = page(() => 1);
    prefetchPath('/campaign/01', signedOut);
    expect(importer).not.toHaveBeenCalled();
  });

  it('warms only the code of a guarded page for a signed-out visitor, and its data for a signed-in one', async () => {
    const loader = vi.fn(() => ({ me: true }));
    const importer = page(loader);
    prefetchPath('/profile', signedOut);
    expect(importer).toHaveBeenCalledWith('profile', { prefetch: true });
    expect(pageDataCache.has('/profile')).toBe(false);
    prefetchPath('/profile', { ...signedOut, signedIn: true });
    await expect(pageDataCache.take('/profile')).resolves.toEqual({ me: true });
  });

  it('gives the loader the route’s params, the path with its query and a signal, under the path-and-query key', async () => {
    const loader = vi.fn(
      (args: { params: Record<string, string>; fullPath: string; signal: AbortSignal }) => args,
    );
    page(loader);
    prefetchPath('/campaign/3?tab=story#top', signedOut);
    const args = (await pageDataCache.take('/campaign/3?tab=story')) as Parameters<typeof loader>[0];
    expect(args.params).toEqual({ id: '3' });
    expect(args.fullPath).toBe('/campaign/3?tab=story');
    expect(args.signal).toBeInstanceOf(AbortSignal);
  });

  it('caches no data for a page without a loader', async () => {
    page();
    prefetchPath('/login', signedOut);
    await expect(pageDataCache.take('/login')).resolves.toBeUndefined();
  });

  it('lets a failed import of the code pass without an unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      connectPrefetch(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
      prefetchPath('/login', { ...signedOut, data: 'none' });
      await flush();
      await flush();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
