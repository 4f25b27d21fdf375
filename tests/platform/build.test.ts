// @vitest-environment happy-dom
// The build adapters (src/platform/build.ts) as the app machine uses them: the build files it fetches for
// update detection, the reload guard's claim on sessionStorage, the page's visibility and connection, and the
// full document load that brings a newer build.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, assign, createActor, setup, toPromise } from 'xstate';
import type { AppEvent } from '../../machines/app/app.machine';
import { config } from '../../src/config';
import { fetchJson, isSlowConnection, loadDocument, watchPage } from '../../src/platform/build';

/** A successful JSON answer, as the static server sends build files. */
function jsonAnswer(body: unknown, type = 'application/json'): Response {
  return new Response(JSON.stringify(body), { headers: { 'content-type': type } });
}

/** The fetch the build adapters see, answering `answer` and recording every request. */
function serve(answer: () => Response | Promise<Response>) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => answer());
}

/**
 * build.ts as a new document loads it. Its actors are made when the module loads, so a test that imports it
 * itself runs the actors of that load (and the mutation run's per-test coverage credits the test with them).
 */
async function loadBuild() {
  vi.resetModules();
  return import('../../src/platform/build');
}

function runPromise<T>(logic: AnyActorLogic, input?: unknown): Promise<T> {
  const actor = createActor(logic, { input });
  const done = toPromise(actor);
  actor.start();
  return done as Promise<T>;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('build files', () => {
  it('asks for JSON with same-origin credentials and the cache mode given, and reads the answer', async () => {
    const fetch = serve(() => jsonAnswer({ id: 'b2' }));
    const signal = new AbortController().signal;
    await expect(fetchJson('/_app/builds/latest.json', signal, 'no-store')).resolves.toEqual({ id: 'b2' });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/_app/builds/latest.json');
    expect(init).toMatchObject({
      cache: 'no-store',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
  });

  it('cancels the request when the caller stops, and leaves no timer behind once it has settled', async () => {
    vi.useFakeTimers();
    const fetch = serve(() => jsonAnswer({ id: 'b2' }));
    const caller = new AbortController();
    await fetchJson('/_app/builds/latest.json', caller.signal, 'no-store');
    const sent = fetch.mock.calls[0]?.[1]?.signal;
    expect(vi.getTimerCount()).toBe(0);
    expect(sent?.aborted).toBe(false);
    caller.abort('stopped');
    expect(sent?.aborted).toBe(true);
  });

  it('rejects an answer that is not a success, naming the file and the status', async () => {
    serve(() => new Response('gone', { status: 404 }));
    await expect(
      fetchJson('/_app/builds/meta/old.json', new AbortController().signal, 'default'),
    ).rejects.toThrow('/_app/builds/meta/old.json answered 404');
  });

  it('rejects a success that is not JSON (a captive portal’s HTML), or says nothing of its type', async () => {
    serve(() => jsonAnswer('<!doctype html>', 'text/html'));
    const signal = new AbortController().signal;
    await expect(fetchJson('/_app/builds/latest.json', signal, 'no-store')).rejects.toThrow(
      '/_app/builds/latest.json is not JSON',
    );
    // A response without a content-type header at all: `new Response` would add text/plain, so a bare one.
    vi.spyOn(globalThis, 'fetch').mockResolvedValue({
      ok: true,
      status: 200,
      headers: new Headers(),
      json: async () => ({ id: 'b2' }),
    } as Response);
    await expect(fetchJson('/_app/builds/latest.json', signal, 'no-store')).rejects.toThrow(
      '/_app/builds/latest.json is not JSON',
    );
  });

  it('fetches the manifest of a build under its encoded id, letting the HTTP cache answer', async () => {
    const manifest = { id: 'b 1/x', routeRules: {} };
    const fetch = serve(() => jsonAnswer(manifest));
    const { fetchManifest } = await loadBuild();
    await expect(runPromise(fetchManifest, { buildId: 'b 1/x' })).resolves.toEqual(manifest);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe(`${config.build.manifestBase}/meta/b%201%2Fx.json`);
    expect(init?.cache).toBe('default');
  });

  it('fetches the newest build id past every cache: no-store and a URL of its own each time', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const fetch = serve(() => jsonAnswer({ id: 'b3' }));
    const { fetchLatestBuild } = await loadBuild();
    vi.setSystemTime(1_700_000_000_000);
    await expect(runPromise(fetchLatestBuild)).resolves.toEqual({ id: 'b3' });
    vi.setSystemTime(1_700_000_060_000);
    await runPromise(fetchLatestBuild);
    expect(fetch.mock.calls.map(([url]) => url)).toEqual([
      `${config.build.manifestBase}/latest.json?1700000000000`,
      `${config.build.manifestBase}/latest.json?1700000060000`,
    ]);
    expect(fetch.mock.calls[0]?.[1]?.cache).toBe('no-store');
  });
});

describe('claiming a page reload', () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(1_000_000);
  });

  const claim = async (path: string) => runPromise<string>((await loadBuild()).claimPageReload, { path });

  it('grants one reload of a path per guard window, remembered in sessionStorage', async () => {
    await expect(claim('/campaign/1')).resolves.toBe('granted');
    expect(JSON.parse(window.sessionStorage.getItem(config.build.reloadGuardKey) ?? '')).toEqual([
      { path: '/campaign/1', expires: 1_000_000 + config.build.reloadGuardMs, at: 1_000_000 },
    ]);
    vi.setSystemTime(1_000_000 + config.build.reloadGuardMs - 1);
    await expect(claim('/campaign/1')).resolves.toBe('denied');
    vi.setSystemTime(1_000_000 + config.build.reloadGuardMs);
    await expect(claim('/campaign/1')).resolves.toBe('granted');
  });

  it('grants at most the configured number of reloads in the cap window, whatever the paths', async () => {
    const claims: string[] = [];
    for (let i = 0; i <= config.build.maxReloads; i += 1) claims.push(await claim(`/page/${i}`));
    expect(claims).toEqual([...Array(config.build.maxReloads).fill('granted'), 'denied']);
    vi.setSystemTime(1_000_000 + config.build.reloadCapWindowMs + 1);
    await expect(claim('/page/again')).resolves.toBe('granted');
  });

  it('never reloads where sessionStorage refuses to work', async () => {
    vi.spyOn(window, 'sessionStorage', 'get').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    await expect(claim('/campaign/1')).resolves.toBe('unavailable');
  });
});

/** Runs watchPage in a state of a parent that records what it reports; `leave()` leaves that state. */
function watch() {
  const parent = setup({
    types: { context: {} as { heard: AppEvent[] }, events: {} as AppEvent | { type: 'leave' } },
    actors: { watchPage },
  }).createMachine({
    context: { heard: [] },
    initial: 'watching',
    states: { watching: { invoke: { src: 'watchPage' }, on: { leave: 'elsewhere' } }, elsewhere: {} },
    on: {
      'page.changed': { actions: assign({ heard: ({ context, event }) => [...context.heard, event] }) },
      'page.restored': { actions: assign({ heard: ({ context, event }) => [...context.heard, event] }) },
    },
  });
  const actor = createActor(parent).start();
  return {
    actor,
    heard: () => actor.getSnapshot().context.heard,
    // The parent keeps running: a listener left behind would still be heard.
    leave: () => actor.send({ type: 'leave' }),
  };
}

/** Vite's event for a failed preload of a chunk's dependency. */
function preloadError(payload: unknown): Event {
  const event = new Event('vite:preloadError', { cancelable: true });
  Object.assign(event, { payload });
  window.dispatchEvent(event);
  return event;
}

describe('watching the page', () => {
  it('reports at once whether the tab is visible and online, then every change', () => {
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('visible');
    const online = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const { actor, heard } = watch();
    expect(heard()).toEqual([{ type: 'page.changed', visible: true, online: true }]);
    online.mockReturnValue(false);
    window.dispatchEvent(new Event('offline'));
    visibility.mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    online.mockReturnValue(true);
    window.dispatchEvent(new Event('online'));
    expect(heard().slice(1)).toEqual([
      { type: 'page.changed', visible: true, online: false },
      { type: 'page.changed', visible: false, online: false },
      { type: 'page.changed', visible: false, online: true },
    ]);
    actor.stop();
  });

  it('stops listening when the app leaves the state that watches', () => {
    const added = [vi.spyOn(document, 'addEventListener'), vi.spyOn(window, 'addEventListener')];
    const removed = [vi.spyOn(document, 'removeEventListener'), vi.spyOn(window, 'removeEventListener')];
    const { actor, heard, leave } = watch();
    leave();
    // Every listener it added is taken off again: a stopped actor's reports would reach nobody, so the test
    // cannot hear one left behind, but the page would keep running it.
    for (const [index, add] of added.entries()) {
      const calls = (spy: typeof add) => spy.mock.calls.map(([type, listener]) => [type, listener]);
      expect(calls(removed[index] as typeof add)).toEqual(calls(add));
      expect(add).toHaveBeenCalled();
    }
    document.dispatchEvent(new Event('visibilitychange'));
    window.dispatchEvent(new Event('online'));
    window.dispatchEvent(new Event('offline'));
    expect(heard()).toHaveLength(1);
    expect(preloadError(new Error('Unable to preload CSS for /assets/page.css')).defaultPrevented).toBe(
      false,
    );
    actor.stop();
  });

  it('tells of a page restored from the back/forward cache, and of no other pageshow', () => {
    const { actor, heard, leave } = watch();
    const before = heard().length;
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: false }));
    expect(heard()).toHaveLength(before);
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    expect(heard().slice(before)).toEqual([{ type: 'page.restored' }]);
    leave();
    window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    expect(heard().slice(before)).toHaveLength(1);
    actor.stop();
  });

  it('swallows a failed CSS preload, and leaves a failed JavaScript preload to the import that needs it', () => {
    const { actor } = watch();
    expect(preloadError(new Error('Unable to preload CSS for /assets/page.css')).defaultPrevented).toBe(true);
    expect(preloadError(new Error('Failed to fetch /assets/page.js')).defaultPrevented).toBe(false);
    expect(preloadError('Unable to preload CSS for /assets/page.css').defaultPrevented).toBe(false);
    actor.stop();
  });
});

describe('connection', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'connection');
  });

  function connection(value: unknown) {
    Object.defineProperty(navigator, 'connection', { value, configurable: true });
  }

  it('is slow on slow-2g only', () => {
    expect(isSlowConnection()).toBe(false);
    connection({});
    expect(isSlowConnection()).toBe(false);
    connection({ effectiveType: '2g' });
    expect(isSlowConnection()).toBe(false);
    connection({ effectiveType: 'slow-2g' });
    expect(isSlowConnection()).toBe(true);
  });
});

describe('loading a document', () => {
  beforeEach(() => {
    window.history.replaceState(null, '', '/campaign/1');
  });

  function navigation() {
    return {
      reload: vi.spyOn(window.location, 'reload').mockImplementation(() => {}),
      assign: vi.spyOn(window.location, 'assign').mockImplementation(() => {}),
    };
  }

  it('loads another app path in full, resolved against the current one', () => {
    const { reload, assign } = navigation();
    loadDocument('/profile?tab=1');
    expect(assign).toHaveBeenCalledExactlyOnceWith(`${window.location.origin}/profile?tab=1`);
    expect(reload).not.toHaveBeenCalled();
  });

  it('reloads when the target is the page already shown', () => {
    const { reload, assign } = navigation();
    loadDocument('/campaign/1');
    expect(reload).toHaveBeenCalledOnce();
    expect(assign).not.toHaveBeenCalled();
  });

  it('never leaves the origin', () => {
    const { reload, assign } = navigation();
    loadDocument('https://elsewhere.example/campaign/1');
    loadDocument('//elsewhere.example/campaign/1');
    expect(reload).not.toHaveBeenCalled();
    expect(assign).not.toHaveBeenCalled();
  });
});
