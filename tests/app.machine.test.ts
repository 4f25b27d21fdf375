import { afterAll, describe, expect, it } from 'vitest';
import type { AnyEventObject, AnyMachineSnapshot } from 'xstate';
import { createAppError } from '../machines/errors';
import { flush, inertApp, startApp, testInput } from './support/appHarness';
import { CoverageRecorder, generateEdgePaths, replayPath } from './support/pathTesting';

describe('app machine: navigation', () => {
  it('waits for the session, then loads the page and commits the URL only afterwards', async () => {
    const app = startApp();
    app.send({ type: 'nav.go', to: '/campaign/1?tab=about#top' });
    expect(app.actor.getSnapshot().matches({ navigation: 'awaitingSession' })).toBe(true);
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
    const app = startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/' });
    await app.finishLoad();
    expect(app.addressBar).toEqual([]);
  });

  it('turns a push to the path already shown into a replacement, so history gets no duplicate', async () => {
    const app = startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/' });
    await app.finishLoad();
    app.send({ type: 'nav.go', to: '/' });
    await app.finishLoad();
    expect(app.addressBar).toEqual([{ type: 'replace', to: '/' }]);
  });

  it('sends a signed-out visitor of a protected page to sign in, keeping the full path to return to', async () => {
    const app = startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/profile?tab=security' });
    expect(app.loads[0]?.input.route).toBe('login');
    await app.finishLoad();
    expect(app.addressBar).toEqual([{ type: 'replace', to: '/login?redirect=%2Fprofile%3Ftab%3Dsecurity' }]);
  });

  it('sends a signed-in user away from the sign-in page to the safe return-to path', async () => {
    const app = startApp();
    app.send({ type: 'session.changed', signedIn: true });
    app.send({ type: 'nav.go', to: '/login?redirect=%2F%2Fevil.example' });
    expect(app.loads[0]?.input.route).toBe('home');
    await app.finishLoad();
    expect(app.addressBar).toEqual([{ type: 'push', to: '/home' }]);
  });

  it('runs the guards again for the page on screen when the session changes', async () => {
    const app = startApp();
    app.send({ type: 'session.changed', signedIn: true });
    app.send({ type: 'nav.popped', to: '/home' });
    await app.finishLoad();
    app.send({ type: 'session.changed', signedIn: false });
    expect(app.loads[1]?.input.route).toBe('login');
    await app.finishLoad();
    expect(app.addressBar.at(-1)).toEqual({ type: 'replace', to: '/login?redirect=%2Fhome' });
  });

  it('lets a newer navigation supersede a pending one and aborts the old load', async () => {
    const app = startApp();
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
    const app = startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to: '/' });
    app.clock.increment(testInput.slowNavigationMs - 1);
    expect(app.actor.getSnapshot().hasTag('slow')).toBe(false);
    app.clock.increment(1);
    expect(app.actor.getSnapshot().hasTag('slow')).toBe(true);
    await app.finishLoad();
    expect(app.actor.getSnapshot().hasTag('slow')).toBe(false);
  });

  it('ignores targets outside the app and says so', () => {
    const app = startApp();
    app.send({ type: 'nav.go', to: 'https://evil.example/' });
    app.send({ type: 'nav.popped', to: '//evil.example' });
    expect(app.rejected).toEqual(['https://evil.example/', '//evil.example']);
    expect(app.actor.getSnapshot().matches({ navigation: 'booting' })).toBe(true);
  });

  it('puts the address bar back when a guard stops a back/forward step', async () => {
    const app = startApp();
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
    const app = startApp();
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
    const app = startApp();
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
    const app = startApp({ visitorIsCrawler: true });
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
    const app = startApp();
    app.send({ type: 'error.raised', error: createAppError({ message: 'render failed', fatal: true }) });
    await flush();
    expect(app.actor.getSnapshot().context.error).toMatchObject({
      statusCode: 500,
      message: 'render failed',
    });
    expect(app.actor.getSnapshot().hasTag('error')).toBe(true);
  });
});

describe('app machine: generated paths', () => {
  const events: AnyEventObject[] = [
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
    { type: 'session.changed', signedIn: true },
    { type: 'session.changed', signedIn: false },
    { type: 'xstate.done.actor.loadPage', output: { data: 'page data' } },
    {
      type: 'xstate.error.actor.loadPage',
      error: { statusCode: 404, message: 'Campaign 9 does not exist.' },
    },
    { type: 'xstate.done.actor.detectCrawler', output: true },
    { type: 'xstate.done.actor.detectCrawler', output: false },
    { type: 'xstate.error.actor.detectCrawler', error: { message: 'isbot failed to load' } },
    { type: 'xstate.after.slowNavigation.app.navigation.loading.quick' },
    { type: 'error.raised', error: createAppError({ message: 'render failed', fatal: true }) },
    { type: 'error.cleared' },
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) =>
    JSON.stringify([
      snapshot.value,
      snapshot.context.session,
      snapshot.context.visitor,
      snapshot.context.current !== null,
    ]);
  const paths = generateEdgePaths({ machine: inertApp, input: testInput, events, serializeState });
  const recorder = new CoverageRecorder(inertApp);

  /** What every settled state must look like, whatever path led there. */
  function assertState(snapshot: AnyMachineSnapshot) {
    const navigation = snapshot.value.navigation;
    const errors = snapshot.value.errors;
    expect(snapshot.hasTag('booting')).toBe(navigation === 'booting');
    expect(snapshot.hasTag('busy')).toBe(typeof navigation === 'object' || navigation === 'awaitingSession');
    expect(snapshot.hasTag('slow')).toBe(JSON.stringify(navigation) === '{"loading":"slow"}');
    expect(snapshot.hasTag('error')).toBe(errors === 'shown');
    if (errors === 'none') expect(snapshot.context.error).toBeNull();
    else expect(snapshot.context.error?.message).toEqual(expect.any(String));
    if (navigation === 'idle') expect(snapshot.context.pending).toBeNull();
    if (typeof navigation === 'object') expect(snapshot.context.pending?.match).not.toBeNull();
    if (navigation === 'awaitingSession') expect(snapshot.context.session).toBe('unknown');
  }

  it('generates a path for every edge of the state graph', () => {
    expect(paths.length).toBeGreaterThan(50);
  });

  for (const path of paths) {
    it(path.description, () => {
      replayPath(path, {
        logic: inertApp,
        input: testInput,
        recorder,
        delays: { slowNavigation: testInput.slowNavigationMs },
        assertState,
        expectValue: (actual, expected, message) => expect(actual, message).toEqual(expected),
      });
    });
  }

  afterAll(() => {
    const report = recorder.report('app machine');
    expect(report.missing).toEqual([]);
  });
});
