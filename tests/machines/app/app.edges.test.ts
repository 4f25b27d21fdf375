/**
 * Behaviour of the app machine that the mutation run found untested: each test here fails under a mutant that
 * survived a Stryker run (the equivalent ones are marked where they live, with `// Stryker disable next-line`).
 */
import { describe, expect, it } from 'vitest';
import { findRoute, type RouteRecord } from '../../../core/routes';
import type { RouteGuard } from '../../../machines/app/app.setup';
import { flush, HOUR, startApp, testGuards, testRoutes } from '../../support/appHarness';

type App = Awaited<ReturnType<typeof startApp>>;

async function showing(app: App, to: string) {
  app.send({ type: 'nav.go', to });
  await app.finishLoad();
}

/** An app whose visitor is signed out, showing `path`. */
async function signedOutOn(path: string, options: Parameters<typeof startApp>[0] = {}) {
  const app = await startApp(options);
  app.send({ type: 'session.changed', signedIn: false });
  await showing(app, path);
  return app;
}

describe('app machine: history intent', () => {
  it('keeps a replacing navigation a replacement while it loads, and replaces the entry when it commits', async () => {
    const app = await signedOutOn('/');
    app.send({ type: 'nav.go', to: '/campaign/1', replace: true });
    expect(app.actor.getSnapshot().context.pending).toMatchObject({
      intent: 'replace',
      original: '/campaign/1',
    });
    await app.finishLoad();
    expect(app.addressBar).toEqual([
      { type: 'push', to: '/' },
      { type: 'replace', to: '/campaign/1' },
    ]);
  });

  it('turns a back/forward step that a guard redirects into a replacement of its entry', async () => {
    const app = await signedOutOn('/');
    app.send({ type: 'nav.popped', to: '/profile' });
    expect(app.actor.getSnapshot().context.pending).toMatchObject({
      intent: 'replace',
      redirects: 1,
      original: '/profile',
    });
    await app.finishLoad();
    expect(app.addressBar.at(-1)).toEqual({ type: 'replace', to: '/login?redirect=%2Fprofile' });
  });

  it('leaves the address bar alone when a guard stops a link navigation (only a back/forward step is put back)', async () => {
    const app = await signedOutOn('/');
    app.send({ type: 'nav.go', to: '/stop' });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.matches({ navigation: 'idle' })).toBe(true);
    expect(snapshot.context.current?.fullPath).toBe('/');
    expect(app.addressBar).toEqual([{ type: 'push', to: '/' }]);
  });
});

describe('app machine: fragment steps', () => {
  it('navigates for a back/forward step to another path or query, even when it carries a #fragment', async () => {
    for (const to of ['/campaign/2?tab=a#x', '/campaign/1?tab=b#x']) {
      const app = await signedOutOn('/campaign/1?tab=a');
      app.send({ type: 'nav.popped', to });
      expect(app.actor.getSnapshot().matches({ navigation: 'loading' })).toBe(true);
      expect(app.loads.at(-1)?.input.fullPath).toBe(to);
      await app.finishLoad('other');
      expect(app.actor.getSnapshot().context.current).toMatchObject({ fullPath: to, data: 'other', key: 2 });
    }
  });

  it('loads the page again for a back/forward step to the very address on screen (no #fragment moved)', async () => {
    const app = await signedOutOn('/campaign/1#top');
    app.send({ type: 'nav.popped', to: '/campaign/1#top' });
    expect(app.actor.getSnapshot().matches({ navigation: 'loading' })).toBe(true);
    await app.finishLoad('again');
    expect(app.actor.getSnapshot().context.current).toMatchObject({ data: 'again', key: 2 });
  });

  it('follows a back step to a #fragment of the page on screen as a navigation while another one is pending', async () => {
    const app = await signedOutOn('/campaign/1');
    app.send({ type: 'nav.go', to: '/campaign/2' });
    const superseded = app.loads[0];
    app.send({ type: 'nav.popped', to: '/campaign/1#details' });
    expect(superseded?.signal.aborted).toBe(true);
    expect(app.loads.at(-1)?.input.fullPath).toBe('/campaign/1#details');
    await app.finishLoad('back');
    expect(app.actor.getSnapshot().context.current).toMatchObject({
      fullPath: '/campaign/1#details',
      params: { id: '1' },
      data: 'back',
      key: 2,
    });
  });
});

describe('app machine: guards and validation', () => {
  const hops: readonly RouteRecord[] = [
    ...testRoutes,
    { ...findRoute('index'), path: '/one-hop', guards: ['toIndex'] },
    { ...findRoute('index'), path: '/two-hops', guards: ['toOneHop'] },
  ];
  const hopGuards: Readonly<Record<string, RouteGuard>> = {
    ...testGuards,
    toIndex: () => ({ type: 'redirect', to: '/' }),
    toOneHop: () => ({ type: 'redirect', to: '/one-hop' }),
  };
  const oneRedirect = { input: { routes: hops, guards: hopGuards, maxRedirects: 1 } };

  it('follows as many redirects as the limit allows, and not one more', async () => {
    const within = await startApp(oneRedirect);
    within.send({ type: 'session.changed', signedIn: false });
    within.send({ type: 'nav.go', to: '/one-hop' });
    expect(within.loads.at(-1)?.input.fullPath).toBe('/');

    const beyond = await startApp(oneRedirect);
    beyond.send({ type: 'session.changed', signedIn: false });
    beyond.send({ type: 'nav.go', to: '/two-hops' });
    await flush();
    const snapshot = beyond.actor.getSnapshot();
    expect(beyond.loads).toHaveLength(0);
    expect(snapshot.hasTag('error')).toBe(true);
    expect(snapshot.context.error?.message).toBe('Navigation to /two-hops was redirected more than 1 times.');
  });

  it('treats a validate rule that throws as a failed one: the fatal 404, nothing loaded', async () => {
    const throwing: readonly RouteRecord[] = [
      ...testRoutes,
      {
        ...findRoute('index'),
        path: '/fragile',
        validate: () => {
          throw new Error('rule broke');
        },
      },
    ];
    const app = await startApp({ input: { routes: throwing } });
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to: '/fragile' });
    await flush();
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.status).toBe('active');
    expect(app.loads).toHaveLength(0);
    expect(snapshot.context.error).toMatchObject({
      statusCode: 404,
      fatal: true,
      message: 'Page Not Found: /fragile',
    });
  });

  it('only records a session change when nothing is on screen yet (the first navigation was stopped)', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/stop' });
    expect(app.actor.getSnapshot().context.current).toBeNull();
    app.send({ type: 'session.changed', signedIn: true });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.status).toBe('active');
    expect(snapshot.matches({ navigation: 'idle' })).toBe(true);
    expect(snapshot.context.session).toBe('signedIn');
    expect(snapshot.context.pending).toBeNull();
    expect(app.loads).toHaveLength(0);
  });
});

describe('app machine: failures without a reason', () => {
  it('shows the 500 page for a page load that fails with no error value at all', async () => {
    for (const reason of [null, undefined]) {
      const app = await startApp();
      app.send({ type: 'session.changed', signedIn: false });
      app.send({ type: 'nav.go', to: '/campaign/1' });
      await app.failLoad(reason);
      const snapshot = app.actor.getSnapshot();
      expect(snapshot.status).toBe('active');
      expect(snapshot.hasTag('error')).toBe(true);
      expect(snapshot.context.error).toMatchObject({ statusCode: 500, message: 'Something went wrong.' });
      // Not taken for a failed chunk: no build check, no retry.
      expect(app.latest).toHaveLength(0);
    }
  });

  it('keeps the build data when a background check fails with no error value at all', async () => {
    for (const reason of [null, undefined]) {
      const app = await startApp({
        manifest: 'manual',
        input: { initial: { fullPath: '/campaign/1', data: 'built' } },
      });
      await app.failRevalidation(reason);
      const snapshot = app.actor.getSnapshot();
      expect(snapshot.status).toBe('active');
      expect(snapshot.hasTag('error')).toBe(false);
      expect(snapshot.context.current).toMatchObject({
        route: 'campaign',
        data: 'built',
        stale: false,
        key: 1,
      });
    }
  });
});

describe('app machine: updates and the first navigation', () => {
  it('never turns the first navigation into a document load, even when an update is already known', async () => {
    const app = await startApp();
    app.clock.increment(HOUR);
    await app.answerLatest({ id: 'build-2', timestamp: 2 });
    expect(app.actor.getSnapshot().hasTag('updatePending')).toBe(true);
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/' });
    expect(app.claims).toHaveLength(0);
    expect(app.loads.at(-1)?.input.fullPath).toBe('/');
    await app.finishLoad();
    expect(app.documents).toEqual([]);
    expect(app.actor.getSnapshot().context.current).toMatchObject({ route: 'index', key: 1 });
  });
});

describe('app machine: creation', () => {
  it('boots as usual when the inlined page has an address that is no path of this app', async () => {
    for (const fullPath of ['https://evil.example/', '//evil.example/', 'campaign/1']) {
      const app = await startApp({ manifest: 'manual', input: { initial: { fullPath, data: 'built' } } });
      const snapshot = app.actor.getSnapshot();
      expect(snapshot.status).toBe('active');
      expect(snapshot.hasTag('booting')).toBe(true);
      expect(snapshot.context.current).toBeNull();
      expect(app.historyStarts).toEqual([{ reportStart: true }]);
    }
  });

  it('boots on a prerendered page of the route table it was given, not the default one', async () => {
    const special: readonly RouteRecord[] = [...testRoutes, { ...findRoute('index'), path: '/special' }];
    const app = await startApp({
      manifest: 'manual',
      input: { routes: special, initial: { fullPath: '/special', data: 'built' } },
    });
    const snapshot = app.actor.getSnapshot();
    expect(snapshot.hasTag('booting')).toBe(false);
    expect(snapshot.context.current).toMatchObject({
      route: 'index',
      fullPath: '/special',
      data: 'built',
      key: 1,
    });
    expect(app.historyStarts).toEqual([{ reportStart: false }]);
  });

  it('registers its session, toaster and colour-mode children under the system ids others look them up by', async () => {
    const app = await startApp({ manifest: 'manual' });
    const { children } = app.actor.getSnapshot();
    expect(app.actor.system.get('session')).toBe(children.session);
    expect(app.actor.system.get('toaster')).toBe(children.toaster);
    expect(app.actor.system.get('colorMode')).toBe(children.colorMode);
    expect(children.session).toBeDefined();
    expect(children.toaster).toBeDefined();
    expect(children.colorMode).toBeDefined();
  });
});
