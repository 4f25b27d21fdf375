import { describe, expect, it } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot, InspectionEvent } from 'xstate';
import { createAppError } from '../../../machines/app/errorCatalogue';
import { flush, HOUR, inertApp, startApp, testInput, testManifest } from '../../support/appHarness';
import { registerPathTests } from '../../support/pathPromises';
import { generateEdgePaths } from '../../support/pathTesting';
import { appPromises, appTransitions } from './app.promises';

async function showing(app: Awaited<ReturnType<typeof startApp>>, to: string) {
  app.send({ type: 'nav.go', to });
  await app.finishLoad();
}

describe('app machine: navigation', () => {
  it('waits for the session, then loads the page and commits the URL only afterwards', async () => {
    const app = await startApp();
    app.send({ type: 'nav.go', to: '/campaign/1?tab=about#top' });
    expect(app.actor.getSnapshot().matches({ navigation: 'awaiting' })).toBe(true);
    app.send({ type: 'session.changed', signedIn: false });
    expect(app.actor.getSnapshot().matches({ navigation: 'loading' })).toBe(true);
    expect(app.loads[0]?.input).toEqual({
      route: 'campaign',
      params: { id: '1' },
      fullPath: '/campaign/1?tab=about#top',
    });
    expect(app.addressBar).toEqual([]);
    await app.finishLoad({ title: 'Garden' });
    const { context } = app.actor.getSnapshot();
    expect(app.addressBar).toEqual([{ type: 'push', to: '/campaign/1?tab=about#top' }]);
    expect(context.current).toMatchObject({
      route: 'campaign',
      params: { id: '1' },
      data: { title: 'Garden' },
      key: 1,
    });
  });

  it('does not touch the address bar for the first location or a back step that lands where the browser is', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/' });
    await app.finishLoad();
    expect(app.addressBar).toEqual([]);
  });

  it('turns a push to the path already shown into a replacement, so history gets no duplicate', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/' });
    await app.finishLoad();
    app.send({ type: 'nav.go', to: '/' });
    await app.finishLoad();
    expect(app.addressBar).toEqual([{ type: 'replace', to: '/' }]);
  });

  it('sends a signed-out visitor of a protected page to sign in, keeping the full path to return to', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/profile?tab=security' });
    expect(app.loads[0]?.input.route).toBe('login');
    await app.finishLoad();
    expect(app.addressBar).toEqual([{ type: 'replace', to: '/login?redirect=%2Fprofile%3Ftab%3Dsecurity' }]);
  });

  it('sends a signed-in user away from the sign-in page to the safe return-to path', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: true });
    app.send({ type: 'nav.go', to: '/login?redirect=%2F%2Fevil.example' });
    expect(app.loads[0]?.input.route).toBe('home');
    await app.finishLoad();
    expect(app.addressBar).toEqual([{ type: 'push', to: '/home' }]);
  });

  it('runs the guards again for the page on screen when the session changes', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: true });
    app.send({ type: 'nav.popped', to: '/home' });
    await app.finishLoad();
    app.send({ type: 'session.changed', signedIn: false });
    expect(app.loads[0]?.input.route).toBe('login');
    await app.finishLoad();
    expect(app.addressBar.at(-1)).toEqual({ type: 'replace', to: '/login?redirect=%2Fhome' });
  });

  it('does not navigate again when the session settles without changing (regression: a failed sign-in re-navigated)', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    await showing(app, '/login');
    app.send({ type: 'session.changed', signedIn: false });
    expect(app.actor.getSnapshot().matches({ navigation: 'idle' })).toBe(true);
    expect(app.loads).toHaveLength(0);
    expect(app.actor.getSnapshot().context.current?.key).toBe(1);
  });

  it('treats a back/forward step that changes only the #fragment as the same page (regression: it re-navigated)', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    await showing(app, '/campaign/1?tab=a');
    app.send({ type: 'nav.popped', to: '/campaign/1?tab=a#details' });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.matches({ navigation: 'idle' })).toBe(true);
    expect(app.loads).toHaveLength(0);
    expect(snapshot.context.current).toMatchObject({ fullPath: '/campaign/1?tab=a#details', key: 1 });
    expect(app.addressBar).toEqual([{ type: 'push', to: '/campaign/1?tab=a' }]);
  });

  it('lets a newer navigation supersede a pending one and aborts the old load', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to: '/campaign/1' });
    const first = app.loads[0];
    app.send({ type: 'nav.go', to: '/campaign/2' });
    expect(first?.signal.aborted).toBe(true);
    first?.resolve({ data: 'stale' });
    await app.finishLoad('fresh');
    expect(app.actor.getSnapshot().context.current).toMatchObject({ params: { id: '2' }, data: 'fresh' });
    expect(app.addressBar).toEqual([{ type: 'push', to: '/campaign/2' }]);
  });

  it('marks a navigation slow only after the configured delay, so fast ones never flash', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to: '/' });
    app.clock.increment(testInput.timing.slowNavigationMs - 1);
    expect(app.actor.getSnapshot().hasTag('slow')).toBe(false);
    app.clock.increment(1);
    expect(app.actor.getSnapshot().hasTag('slow')).toBe(true);
    await app.finishLoad();
    expect(app.actor.getSnapshot().hasTag('slow')).toBe(false);
  });

  it('ignores targets outside the app and says so', async () => {
    const app = await startApp();
    app.send({ type: 'nav.go', to: 'https://evil.example/' });
    app.send({ type: 'nav.popped', to: '//evil.example' });
    expect(app.rejected).toEqual(['https://evil.example/', '//evil.example']);
    expect(app.actor.getSnapshot().matches({ navigation: 'booting' })).toBe(true);
  });

  it('puts the address bar back when a guard stops a back/forward step', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/' });
    await app.finishLoad();
    app.send({ type: 'nav.popped', to: '/stop' });
    expect(app.addressBar).toEqual([{ type: 'replace', to: '/' }]);
    expect(app.actor.getSnapshot().context.current?.fullPath).toBe('/');
  });
});

describe('app machine: errors', () => {
  async function errorAfter(to: string) {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to });
    await flush();
    return app;
  }

  it('shows a non-fatal "Page not found" 404 for a path that matches no route, and commits its URL', async () => {
    const app = await errorAfter('/no/such/page?x=1');
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.hasTag('error')).toBe(true);
    expect(snapshot.context.error).toEqual({
      statusCode: 404,
      fatal: false,
      message: 'Page not found: /no/such/page?x=1',
      path: '/no/such/page?x=1',
    });
    expect(app.addressBar).toEqual([{ type: 'push', to: '/no/such/page?x=1' }]);
  });

  it('shows a fatal "Page Not Found" 404 when the validate rule fails', async () => {
    const app = await errorAfter('/campaign/01');
    expect(app.actor.getSnapshot().context.error).toMatchObject({
      statusCode: 404,
      fatal: true,
      message: 'Page Not Found: /campaign/01',
    });
    expect(app.loads).toHaveLength(0);
  });

  it('raises "Unknown route middleware" as a fatal 500 for a guard that is not registered', async () => {
    const app = await errorAfter('/broken');
    expect(app.actor.getSnapshot().context.error).toMatchObject({
      statusCode: 500,
      fatal: true,
      message: "Unknown route middleware: 'nope'.",
    });
  });

  it('ends a redirect loop on an error page instead of hanging', async () => {
    const app = await errorAfter('/loop');
    expect(app.actor.getSnapshot().context.error?.message).toBe(
      `Navigation to /loop was redirected more than ${testInput.maxRedirects} times.`,
    );
  });

  it('refuses a guard redirect that leaves the app', async () => {
    const app = await errorAfter('/outside');
    expect(app.actor.getSnapshot().context.error?.message).toBe(
      'A guard tried to redirect to https://evil.example/, which is not a page of this app.',
    );
  });

  it('shows what a page load threw, keeping its status, with 500 as the default', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to: '/campaign/999' });
    await app.failLoad({ statusCode: 404, message: 'Campaign 999 does not exist.' });
    expect(app.actor.getSnapshot().context.error).toMatchObject({
      statusCode: 404,
      message: 'Campaign 999 does not exist.',
    });
    app.send({ type: 'nav.go', to: '/campaign/1' });
    await app.failLoad(new Error('chunk went missing'));
    expect(app.actor.getSnapshot().context.error).toMatchObject({
      statusCode: 500,
      message: 'chunk went missing',
    });
  });

  it('clears the error on the next successful navigation', async () => {
    const app = await errorAfter('/no/such/page');
    app.send({ type: 'nav.go', to: '/' });
    await app.finishLoad();
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.hasTag('error')).toBe(false);
    expect(snapshot.context.error).toBeNull();
    expect(snapshot.context.current?.route).toBe('index');
  });

  it('keeps the error page up while a navigation away from it is pending (regression: re-entry reset the errors region)', async () => {
    const app = await errorAfter('/no/such/page');
    app.send({ type: 'nav.go', to: '/' });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.matches({ navigation: 'loading', errors: 'shown' })).toBe(true);
    expect(snapshot.hasTag('error')).toBe(true);
  });

  it('cuts an echoed path to the configured length', async () => {
    const app = await errorAfter(`/${'a'.repeat(500)}`);
    const message = app.actor.getSnapshot().context.error?.message ?? '';
    expect(message).toBe(`Page not found: /${'a'.repeat(testInput.maxEchoedPathLength - 2)}…`);
  });

  it('only logs the error for a crawler, and asks the detector once', async () => {
    const app = await startApp({ visitorIsCrawler: true });
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to: '/nope' });
    await flush();
    app.send({ type: 'nav.go', to: '/nope-again' });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.matches({ errors: 'suppressed' })).toBe(true);
    expect(snapshot.hasTag('error')).toBe(false);
    expect(snapshot.context.visitor).toBe('crawler');
    expect(app.suppressed.map((error) => error.message)).toEqual([
      'Page not found: /nope',
      'Page not found: /nope-again',
    ]);
  });

  it('shows an error a page threw while rendering', async () => {
    const app = await startApp();
    app.send({ type: 'error.raised', error: createAppError({ message: 'render failed', fatal: true }) });
    await flush();
    expect(app.actor.getSnapshot().context.error).toMatchObject({
      statusCode: 500,
      message: 'render failed',
    });
    expect(app.actor.getSnapshot().hasTag('error')).toBe(true);
  });
});

const CHUNK_ERROR = { kind: 'chunk', statusCode: 500, message: 'A part of the app could not be loaded.' };

describe('app machine: build manifest', () => {
  it('fetches the manifest a second after start and applies its redirect rules', async () => {
    const app = await startApp({ manifest: 'manual' });
    expect(app.manifests).toHaveLength(0);
    app.clock.increment(testInput.timing.manifestPreloadMs);
    expect(app.manifests[0]?.input).toEqual({ buildId: 'build-1' });
    await app.answerManifest(testManifest);
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to: '/campaigns#top' });
    expect(app.loads[0]?.input).toEqual({ route: 'index', params: {}, fullPath: '/#top' });
  });

  it('does not preload on slow-2g, but fetches at once when a navigation needs the rules', async () => {
    const app = await startApp({ manifest: 'manual', slowConnection: true });
    app.send({ type: 'session.changed', signedIn: false });
    await showing(app, '/');
    app.clock.increment(10 * testInput.timing.manifestPreloadMs);
    expect(app.manifests).toHaveLength(0);
    app.send({ type: 'nav.go', to: '/campaigns' });
    expect(app.actor.getSnapshot().matches({ navigation: 'awaiting' })).toBe(true);
    expect(app.manifests).toHaveLength(1);
    await app.answerManifest(testManifest);
    expect(app.loads[0]?.input.route).toBe('index');
  });

  it('logs the spec lines when the manifest fails, and navigates without rules', async () => {
    const broken = await startApp({ manifest: 'manual' });
    broken.clock.increment(testInput.timing.manifestPreloadMs);
    await broken.failManifest(new Error('offline'));
    const malformed = await startApp({ manifest: 'manual' });
    malformed.clock.increment(testInput.timing.manifestPreloadMs);
    await malformed.answerManifest('<html>');
    expect(broken.logs).toEqual(['[nuxt] Error fetching app manifest.']);
    expect(malformed.logs).toEqual(['[nuxt] Error creating app manifest matcher.']);
    broken.send({ type: 'session.changed', signedIn: false });
    await showing(broken, '/');
    broken.send({ type: 'nav.go', to: '/campaign/1' });
    expect(broken.loads[0]?.input.route).toBe('campaign');
  });
});

describe('app machine: update detection', () => {
  const newer = { id: 'build-2', timestamp: 2 };
  const same = { id: 'build-1', timestamp: 1 };

  it('checks an hour after start; a new id is an update, announced once, and polling stops', async () => {
    const app = await startApp();
    app.clock.increment(HOUR - testInput.timing.manifestPreloadMs - 1);
    expect(app.latest).toHaveLength(0);
    app.clock.increment(1);
    expect(app.latest).toHaveLength(1);
    await app.answerLatest(newer);
    expect(app.actor.getSnapshot().hasTag('updatePending')).toBe(true);
    expect(app.updatesNotified()).toBe(1);
    app.clock.increment(24 * HOUR);
    expect(app.latest).toHaveLength(0);
  });

  it('turns the next navigation into a document load of its target', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    await showing(app, '/');
    app.clock.increment(HOUR);
    await app.answerLatest(newer);
    app.send({ type: 'nav.go', to: '/campaign/2?tab=about' });
    expect(app.claims[0]?.input).toEqual({ path: '/campaign/2?tab=about' });
    await app.answerClaim('granted');
    expect(app.documents).toEqual(['/campaign/2?tab=about']);
    expect(app.loads).toHaveLength(0);
  });

  it('keeps navigating in place when the reload guard says not again', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    await showing(app, '/');
    app.clock.increment(HOUR);
    await app.answerLatest(newer);
    app.send({ type: 'nav.go', to: '/campaign/2' });
    await app.answerClaim('denied');
    expect(app.documents).toEqual([]);
    expect(app.loads[0]?.input.route).toBe('campaign');
  });

  it('treats a body that is not the expected JSON as a failed check, and backs off', async () => {
    const app = await startApp();
    app.clock.increment(HOUR);
    await app.answerLatest('<html>Sign in to the Wi-Fi</html>');
    expect(app.actor.getSnapshot().hasTag('updatePending')).toBe(false);
    expect(app.actor.getSnapshot().context.build.failedChecks).toBe(1);
    app.clock.increment(2 * HOUR - 1);
    expect(app.latest).toHaveLength(0);
    app.clock.increment(1);
    await app.failLatest(new Error('404'));
    app.clock.increment(4 * HOUR - 1);
    expect(app.latest).toHaveLength(0);
    app.clock.increment(1);
    await app.answerLatest(same);
    expect(app.actor.getSnapshot().context.build.failedChecks).toBe(0);
  });

  it('backs off after failed checks only up to the longest interval, and keeps checking there', async () => {
    const app = await startApp();
    const { updateCheckIntervalMs: first, maxUpdateCheckIntervalMs: longest } = testInput.timing;
    app.clock.increment(first);
    let interval = first;
    // Ten failures in a row: without the cap the next check would come 2^10 hours later (42 days).
    for (let failures = 1; failures <= 10; failures += 1) {
      await app.failLatest(new Error('offline'));
      interval = Math.min(first * 2 ** failures, longest);
      app.clock.increment(interval - 1);
      expect(app.latest, `no check before ${interval} ms after failure ${failures}`).toHaveLength(0);
      app.clock.increment(1);
      expect(app.latest, `a check ${interval} ms after failure ${failures}`).toHaveLength(1);
    }
    expect(interval).toBe(longest);
    await app.answerLatest(same);
    app.clock.increment(first);
    expect(app.latest).toHaveLength(1);
  });

  it('does not poll while hidden or offline, and checks once when the page is back', async () => {
    const app = await startApp();
    app.send({ type: 'page.changed', visible: false, online: true });
    app.clock.increment(HOUR);
    expect(app.latest).toHaveLength(0);
    expect(app.actor.getSnapshot().matches({ build: { updates: 'dormant' } })).toBe(true);
    app.send({ type: 'page.changed', visible: true, online: false });
    expect(app.latest).toHaveLength(0);
    app.send({ type: 'page.changed', visible: true, online: true });
    expect(app.latest).toHaveLength(1);
  });

  it('checks when the tab comes back, but not more often than the throttle', async () => {
    const app = await startApp();
    app.send({ type: 'page.changed', visible: false, online: true });
    app.send({ type: 'page.changed', visible: true, online: true });
    expect(app.latest).toHaveLength(0);
    app.clock.increment(testInput.timing.updateRecheckThrottleMs);
    app.send({ type: 'page.changed', visible: false, online: true });
    app.send({ type: 'page.changed', visible: true, online: true });
    expect(app.latest).toHaveLength(1);
    await app.answerLatest(same);
    app.send({ type: 'page.changed', visible: false, online: true });
    app.send({ type: 'page.changed', visible: true, online: true });
    expect(app.latest).toHaveLength(0);
  });
});

describe('app machine: chunk-load recovery', () => {
  async function failedChunk() {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    await showing(app, '/');
    app.send({ type: 'nav.go', to: '/campaign/3' });
    await app.failLoad(CHUNK_ERROR);
    return app;
  }

  it('reloads the target when a newer build is out and the guard allows', async () => {
    const app = await failedChunk();
    expect(app.actor.getSnapshot().matches({ navigation: 'recovering' })).toBe(true);
    await app.answerLatest({ id: 'build-2', timestamp: 2 });
    expect(app.claims[0]?.input).toEqual({ path: '/campaign/3' });
    await app.answerClaim('granted');
    expect(app.documents).toEqual(['/campaign/3']);
  });

  it('shows the 500 page with the failure when the guard forbids another reload, or cannot remember', async () => {
    for (const claim of ['denied', 'unavailable'] as const) {
      const app = await failedChunk();
      await app.answerLatest({ id: 'build-2', timestamp: 2 });
      await app.answerClaim(claim);
      expect(app.documents).toEqual([]);
      expect(app.actor.getSnapshot().context.error).toMatchObject({
        statusCode: 500,
        message: CHUNK_ERROR.message,
      });
      expect(app.addressBar.at(-1)).toEqual({ type: 'push', to: '/campaign/3' });
    }
  });

  it('retries the import once for the same build, then shows the error page', async () => {
    const app = await failedChunk();
    await app.answerLatest({ id: 'build-1', timestamp: 1 });
    expect(app.loads).toHaveLength(1);
    await app.failLoad(CHUNK_ERROR);
    expect(app.loads).toHaveLength(0);
    expect(app.actor.getSnapshot().context.error?.message).toBe(CHUNK_ERROR.message);
    expect(app.claims).toHaveLength(0);
  });

  it('commits the page when the retry works, also when latest.json is unreachable', async () => {
    const app = await failedChunk();
    await app.failLatest(new Error('offline'));
    await app.finishLoad('second time lucky');
    expect(app.actor.getSnapshot().context.current).toMatchObject({
      route: 'campaign',
      data: 'second time lucky',
    });
    expect(app.actor.getSnapshot().hasTag('error')).toBe(false);
  });
});

describe('app machine: prerendered pages', () => {
  const built = { title: 'Garden', raised: 100 };
  const onCampaign = { initial: { fullPath: '/campaign/1?tab=about#top', data: built } };
  const withPrerendered = { ...testManifest, prerendered: ['/', '/campaign/1'] };

  it('boots settled on the prerendered page with its data: nothing to load, the first location not reported', async () => {
    const app = await startApp({
      manifest: 'manual',
      input: { initial: { fullPath: '/login', data: built } },
    });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.matches({ navigation: 'idle', freshness: 'idle' })).toBe(true);
    expect(snapshot.hasTag('booting')).toBe(false);
    expect(snapshot.context.current).toMatchObject({
      route: 'login',
      fullPath: '/login',
      data: built,
      key: 1,
    });
    expect(app.historyStarts).toEqual([{ reportStart: false }]);
    expect(app.loads).toHaveLength(0);
    expect(app.revalidations).toHaveLength(0);
  });

  it('boots on the prerendered landing page and checks its featured campaigns again at once', async () => {
    const app = await startApp({ manifest: 'manual', input: { initial: { fullPath: '/', data: built } } });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.matches({ navigation: 'idle', freshness: 'revalidating' })).toBe(true);
    expect(snapshot.context.current).toMatchObject({ route: 'index', data: built, stale: true, key: 1 });
    expect(app.loads).toHaveLength(0);
    expect(app.revalidations.map((check) => check.input)).toEqual([
      { route: 'index', params: {}, fullPath: '/' },
    ]);
    const fresh = { featured: [] };
    app.revalidations[0]?.resolve({ data: fresh });
    await flush();
    expect(app.actor.getSnapshot().context.current).toMatchObject({ data: fresh, stale: false, key: 1 });
  });

  it('tells the colour mode at creation what the page it boots on forces, so the first render shows it', async () => {
    const app = await startApp({
      manifest: 'manual',
      input: { initial: { fullPath: '/campaign/components/info', data: undefined } },
    });
    expect(app.actor.getSnapshot().children.colorMode?.getSnapshot().context.forced).toBe('dark');
  });

  it('boots as usual when the inlined page is not one this path can be', async () => {
    for (const fullPath of ['/campaign/abc', '/no/such/page']) {
      const app = await startApp({ manifest: 'manual', input: { initial: { fullPath, data: built } } });
      expect(app.actor.getSnapshot().hasTag('booting')).toBe(true);
      expect(app.actor.getSnapshot().context.current).toBeNull();
      expect(app.historyStarts).toEqual([{ reportStart: true }]);
    }
  });

  it('checks a campaign shown from build data again at once, and updates it in place', async () => {
    const app = await startApp({ manifest: 'manual', input: onCampaign });
    expect(app.revalidations[0]?.input).toEqual({
      route: 'campaign',
      params: { id: '1' },
      fullPath: '/campaign/1?tab=about#top',
    });
    await app.answerRevalidation({ title: 'Garden renamed', raised: 250 }, 'Garden renamed');
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.matches({ navigation: 'idle', freshness: 'idle' })).toBe(true);
    expect(snapshot.context.current).toMatchObject({ data: { raised: 250 }, key: 1, stale: false });
    expect(app.revalidations).toHaveLength(0);
    // The tab follows a renamed campaign; nothing else of page arrival happens (no focus move, no announcement):
    // the page arrived once, at boot, as a document's first page (its #fragment's target is found once drawn).
    expect(app.titles).toEqual(['Garden renamed | campaign-web']);
    expect(app.arrivals).toEqual([{ title: 'Campaign | campaign-web', kind: 'first', hash: '#top' }]);
  });

  it('shows the 404 page when the campaign is gone, as a navigation to it would', async () => {
    const app = await startApp({ manifest: 'manual', input: onCampaign });
    await app.failRevalidation({ statusCode: 404, message: 'Campaign 1 does not exist.' });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.hasTag('error')).toBe(true);
    expect(snapshot.context.error).toMatchObject({ statusCode: 404, message: 'Campaign 1 does not exist.' });
    expect(snapshot.context.current).toMatchObject({ route: null, data: undefined, key: 2, stale: false });
    expect(app.addressBar).toEqual([]);
  });

  it('keeps the build data when the check fails for another reason', async () => {
    const app = await startApp({ manifest: 'manual', input: onCampaign });
    await app.failRevalidation({ statusCode: 503, message: 'offline' });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.hasTag('error')).toBe(false);
    expect(snapshot.context.current).toMatchObject({ route: 'campaign', data: built, stale: false });
    expect(app.revalidations).toHaveLength(0);
  });

  it('drops the check when a navigation starts', async () => {
    const app = await startApp({ manifest: 'manual', input: onCampaign });
    app.send({ type: 'nav.go', to: '/' });
    expect(app.revalidations[0]?.signal.aborted).toBe(true);
    expect(app.actor.getSnapshot().matches({ freshness: 'idle' })).toBe(true);
  });

  it('asks for the payload of a prerendered path only, and checks again what came from one', async () => {
    const app = await startApp({ manifest: 'manual' });
    app.clock.increment(testInput.timing.manifestPreloadMs);
    await app.answerManifest(withPrerendered);
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/campaign/2' });
    expect(app.loads[0]?.input.payload).toBeUndefined();
    await app.finishLoad();
    app.send({ type: 'nav.go', to: '/campaign/1/' });
    expect(app.loads[0]?.input.payload).toEqual({ path: '/campaign/1/', buildId: 'build-1' });
    app.loads[0]?.resolve({ data: built, fromPayload: true });
    await flush();
    expect(app.actor.getSnapshot().context.current).toMatchObject({ data: built, stale: true, key: 2 });
    expect(app.revalidations[0]?.input.fullPath).toBe('/campaign/1/');
    app.send({ type: 'nav.go', to: '/' });
    expect(app.revalidations[0]?.signal.aborted).toBe(true);
    app.loads.at(-1)?.resolve({ data: [], fromPayload: true });
    await flush();
    // The landing page's featured campaigns are checked again too.
    expect(app.actor.getSnapshot().context.current).toMatchObject({ route: 'index', stale: true });
    expect(app.revalidations.map((check) => check.input.fullPath)).toEqual(['/campaign/1/', '/']);
    app.send({ type: 'nav.go', to: '/campaign/components/info' });
    app.loads.at(-1)?.resolve({ data: undefined, fromPayload: true });
    await flush();
    // The gallery does not declare `revalidate`: its build data stays.
    expect(app.actor.getSnapshot().context.current).toMatchObject({
      route: 'campaignComponentsInfo',
      stale: false,
    });
    expect(app.revalidations).toHaveLength(2);
  });

  it('asks the loader, not a payload, for a prerendered path with a query (a later page of the list)', async () => {
    const app = await startApp({ manifest: 'manual' });
    app.clock.increment(testInput.timing.manifestPreloadMs);
    await app.answerManifest(withPrerendered);
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/campaign/1/?x=1' });
    expect(app.loads[0]?.input.payload).toBeUndefined();
    expect(app.loads[0]?.input.fullPath).toBe('/campaign/1/?x=1');
  });

  it('preloads the payloads of the prerendered pages when the manifest arrives, not on slow-2g', async () => {
    const app = await startApp({ manifest: 'manual' });
    app.clock.increment(testInput.timing.manifestPreloadMs - 1);
    expect(app.preloads).toEqual([]);
    app.clock.increment(1);
    await app.answerManifest(withPrerendered);
    expect(app.preloads).toEqual([{ prerendered: ['/', '/campaign/1'], buildId: 'build-1' }]);
    const slow = await startApp({ manifest: 'manual', slowConnection: true });
    slow.send({ type: 'manifest.needed' });
    await slow.answerManifest(withPrerendered);
    expect(slow.actor.getSnapshot().matches({ build: { manifest: 'ready' } })).toBe(true);
    expect(slow.preloads).toEqual([]);
  });
});

describe('app machine: a session that ends mid-session', () => {
  it('a 401 for the page data sends the user through the auth guard to sign in, with return-to (regression)', async () => {
    // It used to end on the error page as "401 Internal Server Error".
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: true });
    await showing(app, '/');
    app.send({ type: 'nav.go', to: '/home' });
    await app.failLoad({ statusCode: 401, message: 'Sign in first.' });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.context.session).toBe('signedOut');
    expect(app.loads.at(-1)?.input).toMatchObject({ route: 'login', fullPath: '/login?redirect=%2Fhome' });
    await app.finishLoad();
    expect(app.addressBar.at(-1)).toEqual({ type: 'push', to: '/login?redirect=%2Fhome' });
    expect(app.actor.getSnapshot().hasTag('error')).toBe(false);
  });

  it('a 401 with no session to end is an error page, not a loop', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to: '/' });
    await app.failLoad({ statusCode: 401, message: 'Sign in first.' });
    await flush();
    expect(app.actor.getSnapshot().context.error).toMatchObject({ statusCode: 401 });
  });
});

/** An inspector that notes the type of every event the app's session child receives. */
function sentToSession(types: string[]) {
  return (event: InspectionEvent) => {
    if (event.type === '@xstate.event' && (event.actorRef as { id?: string }).id === 'session')
      types.push(event.event.type);
  };
}

describe('app machine: back and forward', () => {
  /** Signed out, on `/campaign/1` (data `garden`) after `/` (data `list`): Back goes to `/`. */
  async function leftTheList() {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/' });
    await app.finishLoad('list');
    await showing(app, '/campaign/1');
    return app;
  }

  it('shows a page left a moment ago at once on Back, with the data it was drawn with, then checks it again', async () => {
    const app = await leftTheList();
    app.send({ type: 'nav.popped', to: '/' });
    const snapshot = app.actor.getSnapshot();
    // Settled in the same step: nothing to load, no busy or slow tag, the address bar already where it is.
    expect(snapshot.matches({ navigation: 'idle' })).toBe(true);
    expect(snapshot.hasTag('busy')).toBe(false);
    expect(app.loads).toHaveLength(0);
    expect(app.addressBar).toEqual([{ type: 'push', to: '/campaign/1' }]);
    expect(snapshot.context.current).toMatchObject({ route: 'index', data: 'list', key: 3, via: 'pop' });
    expect(app.arrivals.at(-1)).toEqual({
      title: 'Campaigns that move neighbourhoods | campaign-web',
      kind: 'return',
      hash: '',
    });
    // Its data came from the loader, so it may have changed: checked again in the background, updated in place.
    expect(snapshot.matches({ freshness: 'revalidating' })).toBe(true);
    expect(app.revalidations[0]?.input).toEqual({ route: 'index', params: {}, fullPath: '/' });
    await app.answerRevalidation('fresh list');
    expect(app.actor.getSnapshot().context.current).toMatchObject({
      data: 'fresh list',
      key: 3,
      stale: false,
    });
  });

  it('and Forward again shows the page Back left, which it kept in turn', async () => {
    const app = await leftTheList();
    app.send({ type: 'nav.popped', to: '/' });
    await app.answerRevalidation('fresh list');
    app.send({ type: 'nav.popped', to: '/campaign/1#progress' });
    const { current } = app.actor.getSnapshot().context;
    expect(app.loads).toHaveLength(0);
    expect(current).toMatchObject({
      route: 'campaign',
      data: 'data',
      fullPath: '/campaign/1#progress',
      key: 4,
    });
    expect(app.arrivals.at(-1)).toMatchObject({ kind: 'return', hash: '#progress' });
    // The list as it was last drawn, refreshed data included, waits for the next Back.
    expect(app.actor.getSnapshot().context.remembered.map((page) => [page.fullPath, page.data])).toEqual([
      ['/', 'fresh list'],
    ]);
  });

  it('loads as before what it does not keep: a link to a page visited (only Back and Forward use memory), pages beyond the limit', async () => {
    const app = await leftTheList();
    app.send({ type: 'nav.go', to: '/' });
    expect(app.loads).toHaveLength(1);
    await app.finishLoad('list again');
    await showing(app, '/campaign/2');
    await showing(app, '/campaign/3');
    // The limit is two pages: `/` and /campaign/1 went, the two left last stay.
    expect(app.actor.getSnapshot().context.remembered.map((page) => page.fullPath)).toEqual([
      '/',
      '/campaign/2',
    ]);
    await showing(app, '/campaign/4');
    app.send({ type: 'nav.popped', to: '/' });
    expect(app.loads).toHaveLength(1);
    expect(app.actor.getSnapshot().hasTag('busy')).toBe(true);
  });

  it('keeps one copy per page, the latest, and never the page on screen', async () => {
    const app = await leftTheList();
    await showing(app, '/');
    await showing(app, '/campaign/1');
    expect(app.actor.getSnapshot().context.remembered.map((page) => page.fullPath)).toEqual(['/']);
    app.send({ type: 'nav.popped', to: '/' });
    expect(app.actor.getSnapshot().context.remembered.map((page) => page.fullPath)).toEqual(['/campaign/1']);
  });

  it('runs the guards first: Back to a kept page the session no longer opens goes to sign in', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: true });
    app.send({ type: 'nav.popped', to: '/home' });
    await app.finishLoad('my campaigns');
    await showing(app, '/');
    app.send({ type: 'session.changed', signedIn: false });
    expect(app.actor.getSnapshot().context.remembered).toEqual([]);
    app.send({ type: 'nav.popped', to: '/home' });
    expect(app.loads.at(-1)?.input.fullPath).toBe('/login?redirect=%2Fhome');
    await app.finishLoad();
    // The redirect replaced the entry: a new page, at its top.
    expect(app.arrivals.at(-1)).toMatchObject({ kind: 'new', title: 'Sign in | campaign-web' });
  });

  it('forgets every kept page when the session changes: they showed what the old one could see', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: true });
    app.send({ type: 'nav.popped', to: '/home' });
    await app.finishLoad('my campaigns');
    await showing(app, '/campaign/1');
    expect(app.actor.getSnapshot().context.remembered).toHaveLength(1);
    app.send({ type: 'session.changed', signedIn: true });
    expect(app.actor.getSnapshot().context.remembered).toHaveLength(1);
    app.send({ type: 'session.changed', signedIn: false });
    expect(app.actor.getSnapshot().context.remembered).toEqual([]);
    // The page on screen, loaded again for the new session, is not kept beside itself.
    await app.finishLoad();
    expect(app.actor.getSnapshot().context.remembered).toEqual([]);
  });

  it('does not check again a kept page whose data is the build’s, unless its route asks for it', async () => {
    const app = await startApp({ manifest: 'manual' });
    app.clock.increment(testInput.timing.manifestPreloadMs);
    await app.answerManifest({ ...testManifest, prerendered: ['/campaign/components/info', '/campaign/1'] });
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/' });
    await app.finishLoad();
    // The gallery's data is the build's for good; `/` and campaigns ask to be checked (routes.ts `revalidate`).
    app.send({ type: 'nav.go', to: '/campaign/components/info' });
    app.loads.at(-1)?.resolve({ data: 'built list', fromPayload: true });
    await flush();
    app.send({ type: 'nav.go', to: '/campaign/1' });
    app.loads.at(-1)?.resolve({ data: 'built garden', fromPayload: true });
    await flush();
    await app.answerRevalidation('live garden');
    app.send({ type: 'nav.popped', to: '/campaign/components/info' });
    expect(app.actor.getSnapshot().context.current).toMatchObject({ data: 'built list', stale: false });
    expect(app.revalidations).toHaveLength(0);
    app.send({ type: 'nav.popped', to: '/campaign/1' });
    // A campaign asks to be checked; its data is the API's now anyway.
    expect(app.actor.getSnapshot().context.current).toMatchObject({ data: 'live garden', stale: true });
    expect(app.revalidations).toHaveLength(1);
  });

  it('a 401 while checking a kept page again ends the session, and the guards send the user to sign in', async () => {
    const events: string[] = [];
    const app = await startApp({ inspect: sentToSession(events) });
    app.send({ type: 'session.changed', signedIn: true });
    app.send({ type: 'nav.popped', to: '/home' });
    await app.finishLoad('my campaigns');
    await showing(app, '/');
    app.send({ type: 'nav.popped', to: '/home' });
    await app.failRevalidation({ statusCode: 401, message: 'Sign in first.' });
    expect(events).toContain('session.expired');
    expect(app.actor.getSnapshot().hasTag('error')).toBe(false);
    // The session child reports the sign-out; the page on screen is guarded again.
    app.send({ type: 'session.changed', signedIn: false });
    expect(app.loads.at(-1)?.input.fullPath).toBe('/login?redirect=%2Fhome');
  });

  it('starts a link’s page at the top and a back/forward step where it was: arrivals say which', async () => {
    const app = await leftTheList();
    expect(app.arrivals.map(({ kind }) => kind)).toEqual(['first', 'new']);
    app.send({ type: 'nav.popped', to: '/campaign/9' });
    await app.finishLoad();
    expect(app.arrivals.at(-1)).toMatchObject({ kind: 'return' });
    app.send({ type: 'nav.go', to: '/campaign/2#progress' });
    await app.finishLoad();
    expect(app.arrivals.at(-1)).toMatchObject({ kind: 'new', hash: '#progress' });
  });
});

describe('app machine: #fragment links on the page on screen', () => {
  async function onCampaign() {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    await showing(app, '/campaign/1?tab=a');
    return app;
  }

  it('moves to the fragment with a new history entry, and loads nothing', async () => {
    const app = await onCampaign();
    app.send({ type: 'nav.go', to: '/campaign/1?tab=a#progress' });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.matches({ navigation: 'idle' })).toBe(true);
    expect(app.loads).toHaveLength(0);
    expect(snapshot.context.current).toMatchObject({ fullPath: '/campaign/1?tab=a#progress', key: 1 });
    expect(app.addressBar.at(-1)).toEqual({ type: 'push', to: '/campaign/1?tab=a#progress' });
    expect(app.fragmentArrivals).toEqual([{ kind: 'new', hash: '#progress' }]);
    expect(app.announced()).toEqual([]);
  });

  it('goes to the same fragment again without another entry', async () => {
    const app = await onCampaign();
    app.send({ type: 'nav.go', to: '/campaign/1?tab=a#progress' });
    app.send({ type: 'nav.go', to: '/campaign/1?tab=a#progress' });
    expect(app.addressBar).toEqual([
      { type: 'push', to: '/campaign/1?tab=a' },
      { type: 'push', to: '/campaign/1?tab=a#progress' },
    ]);
    expect(app.fragmentArrivals).toHaveLength(2);
  });

  it('steps back over fragments to where the visitor was', async () => {
    const app = await onCampaign();
    app.send({ type: 'nav.go', to: '/campaign/1?tab=a#progress' });
    app.send({ type: 'nav.popped', to: '/campaign/1?tab=a' });
    expect(app.fragmentArrivals.at(-1)).toEqual({ kind: 'return', hash: '' });
    expect(app.loads).toHaveLength(0);
  });

  it('is a navigation as before when the page or its query differs, the link has no fragment, or one is pending', async () => {
    const app = await onCampaign();
    app.send({ type: 'nav.go', to: '/campaign/1?tab=b#progress' });
    expect(app.loads.map((load) => load.input.fullPath)).toEqual(['/campaign/1?tab=b#progress']);
    // A navigation is pending: a fragment of the page still on screen is a navigation that supersedes it.
    app.send({ type: 'nav.go', to: '/campaign/1?tab=a#progress' });
    expect(app.loads.at(-1)?.input.fullPath).toBe('/campaign/1?tab=a#progress');
    expect(app.loads[0]?.signal.aborted).toBe(true);
    await app.finishLoad();
    app.send({ type: 'nav.go', to: '/campaign/1?tab=a' });
    expect(app.loads.at(-1)?.input.fullPath).toBe('/campaign/1?tab=a');
    expect(app.fragmentArrivals).toEqual([]);
  });
});

describe('app machine: a page restored from the back/forward cache', () => {
  it('asks the session child to check again, and the build at once, even right after a check', async () => {
    const sessionEvents: string[] = [];
    const app = await startApp({ inspect: sentToSession(sessionEvents) });
    app.send({ type: 'session.changed', signedIn: true });
    app.send({ type: 'page.restored' });
    expect(sessionEvents).toContain('session.recheck');
    expect(app.latest).toHaveLength(1);
    await app.answerLatest({ id: testInput.buildId, timestamp: 1 });
    // Within the re-check throttle: coming back to the tab would not check, a restored page does.
    app.send({ type: 'page.restored' });
    expect(app.latest).toHaveLength(1);
    await app.answerLatest({ id: 'build-2', timestamp: 2 });
    expect(app.actor.getSnapshot().hasTag('updatePending')).toBe(true);
    app.send({ type: 'page.restored' });
    expect(app.latest).toHaveLength(0);
  });

  it('checks the build only when the page is visible and online', async () => {
    const app = await startApp();
    app.send({ type: 'page.changed', visible: true, online: false });
    app.send({ type: 'page.restored' });
    expect(app.latest).toHaveLength(0);
  });
});

describe('app machine: generated paths', () => {
  const newer = { id: 'build-2', timestamp: 2 };
  const same = { id: testInput.buildId, timestamp: 1 };
  const afterEvent = (delay: string, state: string) => ({ type: `xstate.after.${delay}.app.${state}` });

  /** Navigation and errors, with just enough of the build region to reach its effects on navigation. */
  const navigationEvents: AnyEventObject[] = [
    { type: 'nav.go', to: '/' },
    { type: 'nav.go', to: '/home' },
    { type: 'nav.go', to: '/no/such/page' },
    { type: 'nav.go', to: '/campaign/abc' },
    { type: 'nav.go', to: '/broken' },
    { type: 'nav.go', to: '/loop' },
    { type: 'nav.go', to: '/outside' },
    { type: 'nav.go', to: 'https://evil.example/' },
    { type: 'nav.popped', to: '/stop' },
    { type: 'nav.popped', to: '//evil.example' },
    { type: 'nav.popped', to: '/#top' },
    // Back to `/` (kept in memory once left), and a link to a fragment of the page on screen.
    { type: 'nav.popped', to: '/' },
    { type: 'nav.go', to: '/#top' },
    { type: 'page.restored' },
    { type: 'session.changed', signedIn: true },
    { type: 'session.changed', signedIn: false },
    { type: 'xstate.done.actor.loadPage', output: { data: 'page data' } },
    {
      type: 'xstate.error.actor.loadPage',
      error: { statusCode: 404, message: 'Campaign 9 does not exist.' },
    },
    {
      type: 'xstate.error.actor.loadPage',
      error: { kind: 'chunk', statusCode: 500, message: 'A part of the app could not be loaded.' },
    },
    { type: 'xstate.error.actor.loadPage', error: { statusCode: 401, message: 'Sign in first.' } },
    { type: 'xstate.done.actor.checkBuildAfterChunkError', output: newer },
    { type: 'xstate.done.actor.checkBuildAfterChunkError', output: same },
    { type: 'xstate.error.actor.checkBuildAfterChunkError', error: { message: 'offline' } },
    { type: 'xstate.done.actor.retryPage', output: { data: 'page data' } },
    { type: 'xstate.error.actor.retryPage', error: { kind: 'chunk', message: 'still missing' } },
    { type: 'xstate.done.actor.claimChunkReload', output: 'granted' },
    { type: 'xstate.done.actor.claimChunkReload', output: 'denied' },
    { type: 'xstate.error.actor.claimChunkReload', error: { message: 'storage threw' } },
    { type: 'xstate.done.actor.claimUpdateReload', output: 'granted' },
    { type: 'xstate.done.actor.claimUpdateReload', output: 'unavailable' },
    { type: 'xstate.error.actor.claimUpdateReload', error: { message: 'storage threw' } },
    { type: 'xstate.done.actor.fetchManifest', output: testManifest },
    { type: 'xstate.done.actor.detectCrawler', output: true },
    { type: 'xstate.done.actor.detectCrawler', output: false },
    { type: 'xstate.error.actor.detectCrawler', error: { message: 'isbot failed to load' } },
    afterEvent('slowNavigation', 'navigation.loading.quick'),
    afterEvent('nextUpdateCheck', 'build.updates.waiting'),
    { type: 'xstate.done.actor.checkForUpdate', output: newer },
    { type: 'error.raised', error: createAppError({ message: 'render failed', fatal: true }) },
    { type: 'page.settled' },
    // A page shown again from memory is checked again: the answer, or a 401 (the session ended).
    { type: 'xstate.done.actor.revalidatePage', output: { data: 'fresh data' } },
    { type: 'xstate.error.actor.revalidatePage', error: { statusCode: 401, message: 'Sign in first.' } },
  ];

  /** The build region on its own: manifest and update checks. */
  const buildEvents: AnyEventObject[] = [
    afterEvent('manifestPreload', 'build.manifest.idle'),
    { type: 'manifest.needed' },
    { type: 'xstate.done.actor.fetchManifest', output: testManifest },
    { type: 'xstate.done.actor.fetchManifest', output: { id: 'build-1', rules: 'not a table' } },
    { type: 'xstate.error.actor.fetchManifest', error: { message: 'offline' } },
    afterEvent('nextUpdateCheck', 'build.updates.waiting'),
    afterEvent('updateRecheckThrottle', 'build.updates.waiting.throttled'),
    { type: 'page.changed', visible: false, online: true },
    { type: 'page.changed', visible: true, online: true },
    { type: 'page.changed', visible: true, online: false },
    { type: 'page.restored' },
    { type: 'xstate.done.actor.checkForUpdate', output: newer },
    { type: 'xstate.done.actor.checkForUpdate', output: same },
    { type: 'xstate.done.actor.checkForUpdate', output: '<html>captive portal</html>' },
    { type: 'xstate.error.actor.checkForUpdate', error: { message: 'offline' } },
  ];

  const value = (snapshot: AnyMachineSnapshot) => snapshot.value as Record<string, unknown>;
  const rememberedPaths = (snapshot: AnyMachineSnapshot) =>
    (snapshot.context.remembered as { fullPath: string }[]).map((page) => page.fullPath);
  const updatePending = (snapshot: AnyMachineSnapshot) => snapshot.hasTag('updatePending');
  const manifestSettled = (snapshot: AnyMachineSnapshot) =>
    snapshot.matches({ build: { manifest: 'ready' } }) || snapshot.matches({ build: { manifest: 'failed' } });
  /** The build region as navigation sees it: where the manifest is, and whether a check or an update is on. */
  const buildPhase = (snapshot: AnyMachineSnapshot) => {
    const build = value(snapshot).build as { manifest: string; updates: unknown };
    return [build.manifest, typeof build.updates === 'string' ? build.updates : 'waiting'];
  };

  /** Booted on a prerendered campaign: revalidation, and the navigations that replace or refresh the page. */
  const hydrationInput = { ...testInput, initial: { fullPath: '/campaign/1', data: 'built' } };
  const hydrationEvents: AnyEventObject[] = [
    { type: 'xstate.done.actor.revalidatePage', output: { data: 'fresh' } },
    { type: 'xstate.error.actor.revalidatePage', error: { statusCode: 404, message: 'Campaign 1 is gone.' } },
    { type: 'xstate.error.actor.revalidatePage', error: { statusCode: 503, message: 'offline' } },
    { type: 'nav.go', to: '/campaign/2' },
    { type: 'session.changed', signedIn: false },
    { type: 'session.changed', signedIn: true },
    { type: 'xstate.done.actor.fetchManifest', output: { ...testManifest, prerendered: ['/campaign/2'] } },
    { type: 'xstate.done.actor.loadPage', output: { data: 'from payload', fromPayload: true } },
    { type: 'xstate.done.actor.loadPage', output: { data: 'from the API' } },
    { type: 'xstate.done.actor.detectCrawler', output: false },
  ];
  const hydrationPaths = () =>
    generateEdgePaths({
      machine: inertApp,
      input: hydrationInput,
      events: hydrationEvents,
      serializeState: (snapshot) =>
        JSON.stringify([
          value(snapshot).navigation,
          value(snapshot).errors,
          value(snapshot).freshness,
          (value(snapshot).build as { manifest: string }).manifest,
          snapshot.context.session,
          snapshot.context.current?.stale ?? null,
          snapshot.context.current?.route ?? null,
        ]),
    });

  const navigationPaths = () =>
    generateEdgePaths({
      machine: inertApp,
      input: testInput,
      events: navigationEvents,
      serializeState: (snapshot) =>
        JSON.stringify([
          value(snapshot).navigation,
          value(snapshot).errors,
          value(snapshot).freshness,
          buildPhase(snapshot),
          snapshot.context.session,
          snapshot.context.visitor,
          snapshot.context.current === null ? null : snapshot.context.current.location.pathname === '/',
          // What Back to `/` reads, and how soon `/` is forgotten (two pages are kept).
          rememberedPaths(snapshot).includes('/'),
          rememberedPaths(snapshot).length,
        ]),
      // One path per (navigation, errors, event), plus the context a guard reads in that state.
      edgeKey: (snapshot) =>
        JSON.stringify([
          value(snapshot).navigation,
          value(snapshot).errors,
          value(snapshot).errors === 'screening' ? snapshot.context.visitor : null,
          value(snapshot).navigation === 'idle' ? snapshot.context.current !== null : null,
          updatePending(snapshot) && snapshot.context.current !== null,
          manifestSettled(snapshot) || snapshot.context.current === null,
          // With nothing pending, what Back to `/` and a fragment link to it read: `/` kept, or on screen.
          value(snapshot).navigation === 'idle'
            ? [rememberedPaths(snapshot).includes('/'), snapshot.context.current?.location.pathname === '/']
            : null,
          // A check of a page shown again: its 401 ends a session only if there is one.
          value(snapshot).freshness === 'revalidating' ? snapshot.context.session : null,
        ]),
    });
  const buildPaths = () =>
    generateEdgePaths({
      machine: inertApp,
      input: testInput,
      events: buildEvents,
      serializeState: (snapshot) =>
        JSON.stringify([
          value(snapshot).build,
          Math.min(snapshot.context.build.failedChecks, 2),
          snapshot.context.page,
        ]),
      edgeKey: (snapshot) =>
        JSON.stringify([
          value(snapshot).build,
          snapshot.context.build.failedChecks > 0,
          snapshot.context.page,
        ]),
    });

  registerPathTests({
    title: 'app machine',
    machine: inertApp,
    promises: appPromises,
    transitions: appTransitions,
    minimumPaths: 120,
    variants: [
      { name: 'default', input: testInput, generate: () => [...navigationPaths(), ...buildPaths()] },
      // Booted on a prerendered campaign: its own input.
      { name: 'hydration', input: hydrationInput, generate: hydrationPaths, minimumPaths: 5 },
    ],
  });
});
