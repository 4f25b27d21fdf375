// @vitest-environment happy-dom
// The app machine with the browser's implementations (src/platform/app.ts): booted on the address bar's page it
// loads that page through the registry's loader, titles the tab, applies the colour mode and preloads the
// build's manifest unless the connection is slow-2g; and each effect it is provided with does what the
// machine names (the update toast with its Reload action, the logs naming what went wrong). Also the two
// actors it loads on demand: the crawler check and the development inspector.
import { createBrowserHistory } from 'history';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AnyActorLogic,
  createActor,
  createMachine,
  fromPromise,
  SimulatedClock,
  toPromise,
  waitFor,
} from 'xstate';
import type { LoadedPage, LoadPageInput, RevalidateInput } from '../../machines/app/app.machine';
import type { ToasterEvent } from '../../machines/toast/toaster.machine';
import { config } from '../../src/config';
import { appInputFrom, createBrowserApp } from '../../src/platform/app';
import { ANNOUNCER_ATTRIBUTE, pageRendered } from '../../src/platform/arrival';
import { detectCrawler } from '../../src/platform/crawler';
import { createInspector } from '../../src/platform/inspector';
import { connectToastApi } from '../../src/platform/toast';

interface PageLoad {
  readonly input: LoadPageInput;
  resolve(page: LoadedPage): void;
}

/** The page registry, as a fake whose loads the test answers. */
function fakeRegistry() {
  const loads: PageLoad[] = [];
  return {
    loads,
    registry: {
      loadPage: fromPromise<LoadedPage, LoadPageInput>(
        ({ input }) => new Promise((resolve) => loads.push({ input, resolve })),
      ),
      revalidatePage: fromPromise<LoadedPage, RevalidateInput>(() => new Promise(() => {})),
    },
  };
}

/** The network never answers: the build checks stay pending, and the test sees what was asked. */
function networkHangs() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(() => new Promise<Response>(() => {}));
}

/** The demo API says nobody is signed in (navigation waits for that); everything else hangs. */
function signedOutNetwork() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (request) => {
    const url = String(request instanceof Request ? request.url : request);
    if (url.endsWith('/session')) return Response.json({ user: null });
    return new Promise<Response>(() => {});
  });
}

function requestedUrls(fetch: ReturnType<typeof networkHangs | typeof signedOutNetwork>) {
  return fetch.mock.calls.map(([request]) => String(request instanceof Request ? request.url : request));
}

/** Calls an action the browser app is provided with, with the params the machine would give it. */
function runAction(name: string, params?: unknown) {
  const { registry } = fakeRegistry();
  const actions = createBrowserApp(createBrowserHistory(), registry).implementations.actions as Record<
    string,
    (args: unknown, params: unknown) => void
  >;
  actions[name]?.({}, params);
}

/** The events `toast.add(...)` and friends send while the test stands in for the toaster. */
function toasterEvents() {
  const events: ToasterEvent[] = [];
  const disconnect = connectToastApi(
    (event) => events.push(event),
    () => undefined,
  );
  return { events, disconnect };
}

beforeEach(() => {
  window.history.replaceState(null, '', '/');
  document.title = '';
  document.body.innerHTML = '';
  localStorage.clear();
  delete document.documentElement.dataset.colorMode;
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the browser app', () => {
  function boot() {
    const fetch = signedOutNetwork();
    const { loads, registry } = fakeRegistry();
    const clock = new SimulatedClock();
    const actor = createActor(createBrowserApp(createBrowserHistory(), registry), {
      clock,
      input: appInputFrom(config),
    });
    actor.start();
    return { actor, clock, fetch, loads };
  }

  it('loads the page in the address bar with the registry, then titles the tab and applies its colour mode', async () => {
    // The component gallery forces dark: the colour mode on <html> is the browser colour mode's doing.
    window.history.replaceState(null, '', '/campaign/components/info');
    const { actor, loads } = boot();
    // Navigation starts once the session is known (the demo API answers after a turn of the event loop).
    await waitFor(actor, (snapshot) => snapshot.matches({ navigation: 'loading' }));
    expect(loads.map(({ input }) => input.fullPath)).toEqual(['/campaign/components/info']);
    loads[0]?.resolve({ data: {}, title: 'Component gallery' });
    await waitFor(actor, (snapshot) => !snapshot.hasTag('booting'));
    expect(document.title).toBe(`Component gallery | ${config.appName}`);
    expect(document.documentElement.dataset.colorMode).toBe('dark');
    actor.stop();
  });

  it("fetches this build's manifest after the preload delay", async () => {
    const { actor, clock, fetch } = boot();
    clock.increment(config.timing.manifestPreloadMs);
    expect(requestedUrls(fetch).filter((url) => url.includes(`/meta/${config.build.id}.json`))).toHaveLength(
      1,
    );
    actor.stop();
  });

  it('leaves the manifest alone on a slow-2g connection', async () => {
    vi.stubGlobal(
      'navigator',
      Object.assign(Object.create(navigator), { connection: { effectiveType: 'slow-2g' } }),
    );
    const { actor, clock, fetch } = boot();
    clock.increment(config.timing.manifestPreloadMs);
    expect(requestedUrls(fetch).filter((url) => url.includes('/meta/'))).toEqual([]);
    actor.stop();
  });
});

describe('the effects the browser app is provided with', () => {
  it('notifyUpdateAvailable shows one lasting background toast whose Reload action reloads the page', () => {
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => {});
    const { events, disconnect } = toasterEvents();
    runAction('notifyUpdateAvailable');
    runAction('notifyUpdateAvailable');
    disconnect();
    const toasts = events.flatMap((event) => (event.type === 'toast.add' ? [event.toast] : []));
    expect(toasts).toHaveLength(2);
    const [first, second] = toasts;
    // The same id: a second check finding the update changes the toast on screen instead of adding another.
    expect(second?.id).toBe(first?.id);
    expect(first?.title).toMatch(/new version/);
    expect(first?.description).toMatch(/Reload/);
    // Background: announced politely, it waits for the user rather than interrupting.
    expect(first?.type).toBe('background');
    expect(first?.duration).toBe(Number.POSITIVE_INFINITY);
    expect(first?.actions?.map(({ label }) => label)).toEqual(['Reload']);
    expect(reload).not.toHaveBeenCalled();
    first?.actions?.[0]?.onClick?.();
    expect(reload).toHaveBeenCalledOnce();
  });

  it('logSuppressedError says the error page was held back for a bot, naming its user agent and the error', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const appError = { statusCode: 500, statusMessage: 'Server Error', message: 'boom' };
    runAction('logSuppressedError', { error: appError });
    const [message, logged] = error.mock.calls[0] ?? [];
    expect(message).toContain('[campaign-web] Not rendering error page for bot');
    expect(message).toContain(`\`${navigator.userAgent}\``);
    expect(logged).toBe(appError);
  });

  it('reportRejectedTarget names the refused target, cut short so a crafted URL cannot flood the log', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const to = `https://evil.example/${'a'.repeat(400)}`;
    runAction('reportRejectedTarget', { to });
    const message = String(warn.mock.calls[0]?.[0]);
    expect(message).toContain(`[campaign-web] Ignored a navigation to ${JSON.stringify(to.slice(0, 200))}`);
    expect(message).not.toContain(to.slice(0, 201));
    expect(message).toContain('only paths inside this app can be opened');
  });

  it('logManifestFetchError and logManifestMatcherError log in the words of the reference, with what failed', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const failure = new Error('offline');
    const manifest = { id: 'build-1', rules: 'not rules' };
    runAction('logManifestFetchError', { error: failure });
    runAction('logManifestMatcherError', { manifest });
    expect(error.mock.calls).toEqual([
      ['[nuxt] Error fetching app manifest.', failure],
      ['[nuxt] Error creating app manifest matcher.', manifest],
    ]);
  });

  it('showDocumentTitle titles the tab', () => {
    runAction('showDocumentTitle', { title: `Campaigns | ${config.appName}` });
    expect(document.title).toBe(`Campaigns | ${config.appName}`);
  });

  it('arriveAtPage announces the page once the view has drawn it', () => {
    document.body.innerHTML = `<p ${ANNOUNCER_ATTRIBUTE}></p><main><h1 tabindex="-1">Campaigns</h1></main>`;
    runAction('arriveAtPage', { title: 'Campaigns', kind: 'new', hash: '' });
    pageRendered();
    expect(document.querySelector(`[${ANNOUNCER_ATTRIBUTE}]`)?.textContent).toBe('Campaigns');
  });

  it('updateAddressBar pushes and replaces entries of the browser history', () => {
    const before = window.history.length;
    runAction('updateAddressBar', { type: 'push', to: '/profile' });
    expect(window.location.pathname).toBe('/profile');
    expect(window.history.length).toBe(before + 1);
    runAction('updateAddressBar', { type: 'replace', to: '/home' });
    expect(window.location.pathname).toBe('/home');
    expect(window.history.length).toBe(before + 1);
  });

  it('loadDocument loads the path as a new document', () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => {});
    runAction('loadDocument', { url: '/campaign/7' });
    expect(assign).toHaveBeenCalledWith(new URL('/campaign/7', window.location.href).href);
  });

  it('preloadPayloads asks for the payloads of prerendered pages that links on screen open', () => {
    const fetch = networkHangs();
    document.body.innerHTML = '<a href="/campaign/components/info">Info</a><a href="/profile">Profile</a>';
    runAction('preloadPayloads', { prerendered: ['/campaign/components/info'], buildId: 'build-1' });
    const urls = requestedUrls(fetch);
    expect(urls).toHaveLength(1);
    expect(urls[0]).toContain('/campaign/components/info');
  });
});

describe('detectCrawler', () => {
  async function detect(userAgent: string) {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(userAgent);
    return toPromise(createActor(detectCrawler).start());
  }

  it('tells a search engine from a person', async () => {
    await expect(
      detect('Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'),
    ).resolves.toBe(true);
    await expect(
      detect(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
      ),
    ).resolves.toBe(false);
  });
});

describe('createInspector', () => {
  it('opens the Stately inspector and streams the actor it inspects to it once connected', () => {
    const inspectorWindow = { postMessage: vi.fn() };
    const open = vi.spyOn(window, 'open').mockReturnValue(inspectorWindow as unknown as Window);
    // The inspector converts each event when the browser is idle: the test says when that is.
    const idle: (() => void)[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: () => void) => idle.push(callback));
    const inspect = createInspector();
    expect(open).toHaveBeenCalledWith(expect.stringContaining('stately.ai/inspect'), expect.any(String));
    createActor(createMachine({ id: 'inspected' }) as AnyActorLogic, { inspect }).start();
    for (const callback of idle.splice(0)) callback();
    window.dispatchEvent(new MessageEvent('message', { data: { type: '@statelyai.connected' } }));
    const streamed = inspectorWindow.postMessage.mock.calls.map(([message]) => message as { name?: string });
    expect(streamed.map(({ name }) => name)).toContain('inspected');
  });
});
