// @vitest-environment happy-dom
// The page registry's chunk imports as a navigation sees them (src/pages/registry.ts). The registry keeps its
// state per route for the document's life: the first tests use a route each on the registry imported here,
// the later ones a fresh registry of their own (`freshRegistry`).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, createActor, toPromise } from 'xstate';
import type { RouteName } from '../../core/routes';
import { importPage, loadPage } from '../../src/pages/registry';

/** The network as each page chunk sees it: an import of the chunk is one request, which fails while offline. */
const network = vi.hoisted(() => {
  const requests = new Map<string, number>();
  const state = {
    online: true,
    requests,
    /** While set, every chunk request waits for it: a request on its way. */
    hold: null as Promise<void> | null,
    /** The URL of each page file's chunk (`virtual:page-chunks`); none unless a test gives one. */
    chunkUrls: {} as Record<string, string>,
    /** What a test changes in a page module, by route (a page without a title). */
    overrides: {} as Record<string, Record<string, unknown>>,
  };
  /** The login page's stand-in has a loader; its data's `name` is its title. */
  const loader = vi.fn(async (args: { fullPath: string }) => ({ name: `Loaded ${args.fullPath}` }));
  return {
    state,
    loader,
    /** A mock page module: counts the request, fails offline. */
    chunk(name: string, page: Record<string, unknown> = {}) {
      requests.set(name, (requests.get(name) ?? 0) + 1);
      const answer = () => {
        if (!state.online) throw new TypeError('Failed to fetch dynamically imported module');
        return {
          default: {
            title: (data?: { name: string }) => data?.name ?? `The ${name} page`,
            ...page,
            ...state.overrides[name],
          },
        };
      };
      return state.hold !== null ? state.hold.then(answer) : answer();
    },
  };
});

vi.mock('virtual:page-chunks', () => ({ default: network.state.chunkUrls }));
vi.mock('../../src/pages/profile.tsx', () => network.chunk('profile'));
vi.mock('../../src/pages/campaign.tsx', () => network.chunk('campaign'));
vi.mock('../../src/pages/home.tsx', () => network.chunk('home'));
vi.mock('../../src/pages/login.tsx', () => network.chunk('login', { loader: network.loader }));
vi.mock('../../src/pages/index.tsx', () => network.chunk('index'));
vi.mock('../../src/pages/componentsInfo.tsx', () => network.chunk('campaignComponentsInfo'));

let now = 0;
const requests = (route: RouteName) => network.state.requests.get(route) ?? 0;

beforeEach(() => {
  network.state.online = true;
  network.state.hold = null;
  network.state.requests.clear();
  for (const file of Object.keys(network.state.chunkUrls)) delete network.state.chunkUrls[file];
  for (const route of Object.keys(network.state.overrides)) delete network.state.overrides[route];
  now = 1_000;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});

/** A hover's prefetch while offline: the chunk's request fails. */
async function failedPrefetch(route: RouteName) {
  network.state.online = false;
  await expect(importPage(route, { prefetch: true })).rejects.toMatchObject({ kind: 'chunk', route });
  expect(requests(route)).toBe(1);
  network.state.online = true;
}

/** The click's navigation, as the app machine's loadPage actor runs it. */
function navigate(route: RouteName) {
  const actor = createActor(loadPage, { input: { route, params: {}, fullPath: `/${route}` } });
  const done = toPromise(actor);
  actor.start();
  return done;
}

describe('a failed prefetch of a page chunk', () => {
  it('is the first attempt of a click within 10 s: the error view, without another request', async () => {
    await failedPrefetch('profile');
    now += 9_999;
    await expect(navigate('profile')).rejects.toMatchObject({ kind: 'chunk', route: 'profile' });
    expect(requests('profile')).toBe(1);
    // Kept for that one navigation: the chunk recovery's retry makes a request and gets the page.
    await expect(navigate('profile')).resolves.toEqual({ data: undefined, title: 'The profile page' });
    expect(requests('profile')).toBe(2);
  });

  it('is forgotten after 10 s: a click 30 s later asks the network again and shows the page', async () => {
    await failedPrefetch('campaign');
    now += 30_000;
    await expect(navigate('campaign')).resolves.toEqual({ data: undefined, title: 'The campaign page' });
    expect(requests('campaign')).toBe(2);
  });

  it('is forgotten at exactly 10 s', async () => {
    await failedPrefetch('home');
    now += 10_000;
    await expect(navigate('home')).resolves.toEqual({ data: undefined, title: 'The home page' });
    expect(requests('home')).toBe(2);
  });
});

/** A registry, with the modules it uses, as a new document has them: no page loaded, no failure remembered. */
async function freshRegistry() {
  vi.resetModules();
  // A mock module, once it has loaded, is kept across resetModules: mocking again makes its chunk new too.
  vi.doMock('../../src/pages/index.tsx', () => network.chunk('index'));
  vi.doMock('../../src/pages/home.tsx', () => network.chunk('home'));
  vi.doMock('../../src/pages/campaign.tsx', () => network.chunk('campaign'));
  vi.doMock('../../src/pages/profile.tsx', () => network.chunk('profile'));
  vi.doMock('../../src/pages/login.tsx', () => network.chunk('login', { loader: network.loader }));
  vi.doMock('../../src/pages/componentsInfo.tsx', () => network.chunk('campaignComponentsInfo'));
  const registry = await import('../../src/pages/registry');
  const { pageDataCache, pageDataKey } = await import('../../src/platform/prefetch');
  /** An actor of the registry's, run to its end. */
  const run = <T>(logic: AnyActorLogic, input: unknown): Promise<T> => {
    const actor = createActor(logic, { input });
    const done = toPromise(actor);
    actor.start();
    return done as Promise<T>;
  };
  return {
    ...registry,
    pageDataCache,
    pageDataKey,
    navigate: (route: RouteName, extra: Record<string, unknown> = {}) =>
      run(registry.loadPage, { route, params: {}, fullPath: `/${route}`, ...extra }),
    revalidate: (route: RouteName, fullPath = `/${route}`) =>
      run(registry.revalidatePage, { route, params: { id: '5' }, fullPath }),
  };
}

/** Every chunk request waits until the returned function is called. */
function holdRequests() {
  let release!: () => void;
  network.state.hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  return release;
}

describe('a page chunk', () => {
  it('is fetched once: later needs get the same page at once, and loadedPage has it', async () => {
    const registry = await freshRegistry();
    expect(registry.loadedPage('index')).toBeUndefined();
    const page = await registry.importPage('index');
    expect(page.title?.(undefined)).toBe('The index page');
    expect(registry.loadedPage('index')).toBe(page);
    await expect(registry.importPage('index')).resolves.toBe(page);
    await expect(registry.importPage('index', { prefetch: true })).resolves.toBe(page);
    expect(requests('index')).toBe(1);
  });

  it('on its way is shared by everyone who needs it: one request', async () => {
    const registry = await freshRegistry();
    const release = holdRequests();
    const hover = registry.importPage('index', { prefetch: true });
    const click = registry.importPage('index');
    const another = registry.importPage('index');
    release();
    const pages = await Promise.all([hover, click, another]);
    expect(new Set(pages).size).toBe(1);
    expect(requests('index')).toBe(1);
  });

  it('that failed says which route, and why, as the error view needs it', async () => {
    const registry = await freshRegistry();
    network.state.online = false;
    const error = await registry.importPage('index').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(registry.ChunkLoadError);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ChunkLoadError',
      message: 'A part of the app could not be loaded. Check your connection, then reload the page.',
      statusCode: 500,
      kind: 'chunk',
      route: 'index',
    });
    // The import's own error, for the reports (here wrapped by the test runner's module loader).
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('that failed for a navigation is not kept: the next navigation asks again at once', async () => {
    const registry = await freshRegistry();
    network.state.online = false;
    await expect(registry.navigate('index')).rejects.toMatchObject({ kind: 'chunk' });
    network.state.online = true;
    await expect(registry.navigate('index')).resolves.toMatchObject({ title: 'The index page' });
    expect(requests('index')).toBe(2);
  });

  it('that failed for a navigation which joined a prefetch belongs to that navigation: the next click asks again', async () => {
    const registry = await freshRegistry();
    network.state.online = false;
    const release = holdRequests();
    const hover = registry.importPage('index', { prefetch: true });
    const click = registry.importPage('index');
    release();
    await expect(hover).rejects.toMatchObject({ kind: 'chunk' });
    await expect(click).rejects.toMatchObject({ kind: 'chunk' });
    network.state.online = true;
    await expect(registry.navigate('index')).resolves.toMatchObject({ title: 'The index page' });
    expect(requests('index')).toBe(2);
  });

  it('that failed for a prefetch is tried again by the next prefetch', async () => {
    const registry = await freshRegistry();
    network.state.online = false;
    await expect(registry.importPage('index', { prefetch: true })).rejects.toMatchObject({ kind: 'chunk' });
    network.state.online = true;
    await expect(registry.importPage('index', { prefetch: true })).resolves.toBeDefined();
    expect(requests('index')).toBe(2);
    // The page is there now: the click shows it, whatever the earlier prefetch's failure said.
    await expect(registry.navigate('index')).resolves.toMatchObject({ title: 'The index page' });
    expect(requests('index')).toBe(2);
  });

  it('is retried at a URL of its own each time (`?retry=1`, `?retry=2`), the first attempt at the bundler’s', async () => {
    // A URL where nothing is: each retry fails, and its error names the URL it asked for.
    network.state.chunkUrls.componentsInfo = '/no-such-chunk/componentsInfo.js';
    const registry = await freshRegistry();
    network.state.online = false;
    await expect(registry.importPage('campaignComponentsInfo')).rejects.toMatchObject({ kind: 'chunk' });
    expect(requests('campaignComponentsInfo')).toBe(1);
    network.state.online = true;
    const causes: string[] = [];
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const error = await registry.importPage('campaignComponentsInfo').catch((caught: unknown) => caught);
      expect(error).toMatchObject({ kind: 'chunk', route: 'campaignComponentsInfo' });
      causes.push(String((error as { cause: unknown }).cause));
    }
    expect(causes[0]).toContain('/no-such-chunk/componentsInfo.js?retry=1');
    expect(causes[1]).toContain('/no-such-chunk/componentsInfo.js?retry=2');
    expect(requests('campaignComponentsInfo')).toBe(1);
  });

  it('of every route is its own: the bundler’s import first, then a retry at that chunk’s URL', async () => {
    const files: Record<RouteName, string> = {
      index: 'index',
      home: 'home',
      login: 'login',
      campaign: 'campaign',
      profile: 'profile',
      campaignComponentsInfo: 'componentsInfo',
    };
    for (const file of Object.values(files)) network.state.chunkUrls[file] = `/no-such-chunk/${file}.js`;
    const registry = await freshRegistry();
    for (const [route, file] of Object.entries(files) as [RouteName, string][]) {
      network.state.online = false;
      await expect(registry.importPage(route)).rejects.toMatchObject({ kind: 'chunk', route });
      expect(requests(route)).toBe(1);
      network.state.online = true;
      const retry = await registry.importPage(route).catch((caught: unknown) => caught);
      expect(String((retry as { cause: unknown }).cause)).toContain(`/no-such-chunk/${file}.js?retry=1`);
      expect(requests(route)).toBe(1);
    }
  });

  it('that failed for two hovers at once is still the next click’s first attempt', async () => {
    const registry = await freshRegistry();
    network.state.online = false;
    const release = holdRequests();
    const first = registry.importPage('index', { prefetch: true });
    const second = registry.importPage('index', { prefetch: true });
    release();
    await expect(first).rejects.toMatchObject({ kind: 'chunk' });
    await expect(second).rejects.toMatchObject({ kind: 'chunk' });
    network.state.online = true;
    await expect(registry.navigate('index')).rejects.toMatchObject({ kind: 'chunk', route: 'index' });
    expect(requests('index')).toBe(1);
  });

  it('that a retry fetched is the page', async () => {
    // The real login page's source stands for the chunk's URL, as in `vite dev`: a module the mocks do not reach.
    network.state.chunkUrls.componentsInfo = '/src/pages/login.tsx';
    const registry = await freshRegistry();
    network.state.online = false;
    await expect(registry.importPage('campaignComponentsInfo')).rejects.toMatchObject({ kind: 'chunk' });
    const page = await registry.importPage('campaignComponentsInfo');
    expect(page.component).toEqual(expect.any(Function));
    expect(registry.loadedPage('campaignComponentsInfo')).toBe(page);
    expect(requests('campaignComponentsInfo')).toBe(1);
  });
});

/** What `fetch` answers for a payload, `_payload.json` beside the page. */
function payloadAnswer(body: unknown, status = 200) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async () =>
      Response.json(body, { status, headers: { 'content-type': 'application/json' } }),
    );
}

describe('a navigation’s data', () => {
  beforeEach(() => {
    network.loader.mockClear();
  });

  it('comes from the page’s loader, with the route’s params, the full path and the navigation’s signal', async () => {
    const registry = await freshRegistry();
    await expect(
      registry.navigate('login', { params: { id: '5' }, fullPath: '/login?x=1' }),
    ).resolves.toEqual({
      data: { name: 'Loaded /login?x=1' },
      title: 'Loaded /login?x=1',
    });
    expect(network.loader).toHaveBeenCalledExactlyOnceWith({
      params: { id: '5' },
      fullPath: '/login?x=1',
      signal: expect.any(AbortSignal),
    });
  });

  it('comes from this build’s payload of a prerendered page, without asking the loader', async () => {
    const registry = await freshRegistry();
    const fetch = payloadAnswer({ buildId: 'b1', path: '/login', data: { name: 'Prerendered' } });
    await expect(registry.navigate('login', { payload: { path: '/login', buildId: 'b1' } })).resolves.toEqual(
      {
        data: { name: 'Prerendered' },
        title: 'Prerendered',
        fromPayload: true,
      },
    );
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/login/_payload.json?b1');
    expect(network.loader).not.toHaveBeenCalled();
  });

  it('falls back to the loader when the payload cannot be had, or carries no data', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const registry = await freshRegistry();
    payloadAnswer({ message: 'Not found' }, 404);
    await expect(registry.navigate('login', { payload: { path: '/login', buildId: 'b1' } })).resolves.toEqual(
      {
        data: { name: 'Loaded /login' },
        title: 'Loaded /login',
      },
    );
    payloadAnswer({ buildId: 'b2', path: '/login' });
    await expect(registry.navigate('login', { payload: { path: '/login', buildId: 'b2' } })).resolves.toEqual(
      {
        data: { name: 'Loaded /login' },
        title: 'Loaded /login',
      },
    );
    expect(network.loader).toHaveBeenCalledTimes(2);
  });

  it('is none for a page without a loader, even a prerendered one', async () => {
    const registry = await freshRegistry();
    const fetch = payloadAnswer({ buildId: 'b1', path: '/index', data: { name: 'Unused' } });
    await expect(registry.navigate('index', { payload: { path: '/index', buildId: 'b1' } })).resolves.toEqual(
      {
        data: undefined,
        title: 'The index page',
      },
    );
    expect(fetch).toHaveBeenCalledOnce();
  });

  it('leaves the title to the route table when the page has none', async () => {
    network.state.overrides.login = { title: undefined };
    network.state.overrides.index = { title: undefined };
    const registry = await freshRegistry();
    await expect(registry.navigate('login')).resolves.toEqual({
      data: { name: 'Loaded /login' },
      title: undefined,
    });
    await expect(registry.navigate('index')).resolves.toEqual({ data: undefined, title: undefined });
    payloadAnswer({ buildId: 'b1', path: '/login', data: { name: 'Prerendered' } });
    await expect(registry.navigate('login', { payload: { path: '/login', buildId: 'b1' } })).resolves.toEqual(
      {
        data: { name: 'Prerendered' },
        title: undefined,
        fromPayload: true,
      },
    );
    await expect(registry.revalidate('login')).resolves.toEqual({
      data: { name: 'Loaded /login' },
      title: undefined,
    });
    await expect(registry.revalidate('index')).resolves.toEqual({ data: undefined, title: undefined });
  });

  it('comes from a prefetch of the same path and query, whatever the fragment', async () => {
    const registry = await freshRegistry();
    registry.pageDataCache.prefetch(registry.pageDataKey('/login?x=1'), async () => ({ name: 'Prefetched' }));
    await expect(registry.navigate('login', { fullPath: '/login?x=1#form' })).resolves.toEqual({
      data: { name: 'Prefetched' },
      title: 'Prefetched',
    });
    expect(network.loader).not.toHaveBeenCalled();
  });
});

describe('revalidating the page on screen', () => {
  beforeEach(() => {
    network.loader.mockClear();
  });

  it('asks the page’s loader again, never a prefetch', async () => {
    const registry = await freshRegistry();
    registry.pageDataCache.prefetch(registry.pageDataKey('/login'), async () => ({ name: 'Prefetched' }));
    await expect(registry.revalidate('login')).resolves.toEqual({
      data: { name: 'Loaded /login' },
      title: 'Loaded /login',
    });
    expect(network.loader).toHaveBeenCalledExactlyOnceWith({
      params: { id: '5' },
      fullPath: '/login',
      signal: expect.any(AbortSignal),
    });
  });

  it('has nothing to ask of a page without a loader', async () => {
    const registry = await freshRegistry();
    await expect(registry.revalidate('index')).resolves.toEqual({ data: undefined, title: 'The index page' });
  });

  /** A `scheduler.postTask` that keeps its tasks, and animation frames that come at once. */
  function holdTasks() {
    const posted: (() => void)[] = [];
    vi.stubGlobal('scheduler', { postTask: (task: () => void) => posted.push(task) });
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => callback());
    return posted;
  }

  it('asks once the page has been painted, not in the task that committed it', async () => {
    const registry = await freshRegistry();
    const posted = holdTasks();
    const fresh = registry.revalidate('login');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(network.loader).not.toHaveBeenCalled();
    for (const task of posted.splice(0)) task();
    await expect(fresh).resolves.toEqual({ data: { name: 'Loaded /login' }, title: 'Loaded /login' });
    expect(network.loader).toHaveBeenCalledOnce();
    vi.unstubAllGlobals();
  });

  it('asks nothing when a navigation replaced the page before its frame', async () => {
    const registry = await freshRegistry();
    const posted = holdTasks();
    const actor = createActor(registry.revalidatePage, {
      input: { route: 'login', params: {}, fullPath: '/login' },
    }).start();
    actor.stop();
    for (const task of posted.splice(0)) task();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(network.loader).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });
});
