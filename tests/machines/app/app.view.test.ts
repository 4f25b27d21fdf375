import { describe, expect, it } from 'vitest';
import { documentTitleOf, errorDocumentTitle } from '../../../machines/app/app.navigation';
import { appCommands, appView, currentPathOf, prefetchView } from '../../../machines/app/app.view';
import { createAppError } from '../../../machines/app/errorCatalogue';
import { flush, startApp, testManifest } from '../../support/appHarness';

async function signedOutApp(options: Parameters<typeof startApp>[0] = {}) {
  const app = await startApp(options);
  app.send({ type: 'session.changed', signedIn: false });
  return app;
}

describe('app view', () => {
  it('is booting, with no page and the app name as title, before the first navigation settles', async () => {
    const app = await startApp();
    expect(appView(app.actor.getSnapshot())).toEqual({
      booting: true,
      pageShown: false,
      busy: false,
      slow: false,
      error: null,
      current: null,
      currentPath: undefined,
      pageKey: '',
      documentTitle: 'campaign-web',
    });
  });

  it('keys the page by path and query, not by #fragment, and titles it from the loaded page', async () => {
    const app = await signedOutApp();
    app.send({ type: 'nav.popped', to: '/campaign/1?tab=a#details' });
    await app.finishLoad({ id: 1 }, 'Garden');
    const view = appView(app.actor.getSnapshot());
    expect(view).toMatchObject({
      booting: false,
      pageShown: true,
      error: null,
      pageKey: '/campaign/1?tab=a',
      currentPath: '/campaign/1',
    });
    expect(view.current).toMatchObject({ route: 'campaign', title: 'Garden', data: { id: 1 } });
    expect(view.documentTitle).toBe('Garden | campaign-web');
  });

  it('falls back to the route table’s title when the page gives none', async () => {
    const app = await signedOutApp();
    app.send({ type: 'nav.popped', to: '/login' });
    await app.finishLoad();
    expect(appView(app.actor.getSnapshot()).documentTitle).toBe('Sign in | campaign-web');
  });

  it('shows the error and its title only once the error page is up', async () => {
    const app = await signedOutApp();
    app.send({ type: 'nav.popped', to: '/no/such/page' });
    await flush();
    const view = appView(app.actor.getSnapshot());
    expect(view.error).toMatchObject({ statusCode: 404 });
    expect(view.documentTitle).toBe('404 - Page Not Found | campaign-web');
    expect(view.pageShown).toBe(true);
  });

  it('counts an error page that shows before any page was committed as the page shown', async () => {
    const app = await startApp();
    app.send({ type: 'error.raised', error: createAppError({ statusCode: 500, message: 'boom' }) });
    await flush();
    expect(app.actor.getSnapshot().context.current).toBeNull();
    expect(appView(app.actor.getSnapshot())).toMatchObject({ pageShown: true, error: { statusCode: 500 } });
  });

  it('writes error titles as status, message and app name', () => {
    const error = createAppError({ statusCode: 500, message: 'boom' });
    expect(errorDocumentTitle(error, 'x')).toMatch(/^500 - .+ \| x$/);
  });

  it('titles a context without a page with the app name alone', async () => {
    const app = await startApp();
    expect(documentTitleOf(app.actor.getSnapshot().context, null)).toBe('campaign-web');
  });
});

describe('page arrival (app machine actions)', () => {
  it('sets the title of the first page but keeps the browser’s focus; arrives at every later page', async () => {
    const app = await signedOutApp();
    app.send({ type: 'nav.popped', to: '/login#help' });
    await app.finishLoad();
    expect(app.titles).toEqual(['Sign in | campaign-web']);
    // The first page arrives as a document's does: focus and announcement are the browser's, the fragment is not.
    expect(app.arrivals).toEqual([{ title: 'Sign in | campaign-web', kind: 'first', hash: '#help' }]);
    app.send({ type: 'nav.go', to: '/campaign/1' });
    expect(appView(app.actor.getSnapshot())).toMatchObject({ busy: true, slow: false });
    app.clock.increment(250);
    expect(appView(app.actor.getSnapshot())).toMatchObject({ busy: true, slow: true });
    await app.finishLoad({ id: 1 }, 'Garden');
    expect(app.titles.at(-1)).toBe('Garden | campaign-web');
    expect(app.arrivals.at(-1)).toEqual({ title: 'Garden | campaign-web', kind: 'new', hash: '' });
    expect(app.announced()).toEqual(['Garden | campaign-web']);
    expect(appView(app.actor.getSnapshot())).toMatchObject({ busy: false, slow: false });
  });

  it('arrives at an error page, even the first one', async () => {
    const app = await signedOutApp();
    app.send({ type: 'nav.popped', to: '/no/such/page' });
    await flush();
    expect(app.arrivals).toEqual([{ title: '404 - Page Not Found | campaign-web', kind: 'new', hash: '' }]);
    expect(app.titles.at(-1)).toBe('404 - Page Not Found | campaign-web');
  });

  it('does not arrive anywhere for a crawler’s suppressed error, and titles the empty page with the app name', async () => {
    const app = await signedOutApp({ visitorIsCrawler: true });
    app.send({ type: 'nav.popped', to: '/no/such/page' });
    await flush();
    expect(app.suppressed).toHaveLength(1);
    expect(app.arrivals).toEqual([]);
    expect(app.titles.at(-1)).toBe('campaign-web');
  });

  it('arrives nowhere when a guard stops the navigation', async () => {
    const app = await signedOutApp();
    app.send({ type: 'nav.popped', to: '/login' });
    await app.finishLoad();
    app.send({ type: 'nav.go', to: '/stop' });
    await flush();
    expect(app.announced()).toEqual([]);
  });
});

describe('app view selectors and commands', () => {
  it('go sends nav.go, with replace only when asked', () => {
    const sent: unknown[] = [];
    const { go } = appCommands((event) => sent.push(event));
    go('/campaign/1');
    go('/login', { replace: true });
    go('/home', { replace: false });
    expect(sent).toStrictEqual([
      { type: 'nav.go', to: '/campaign/1' },
      { type: 'nav.go', to: '/login', replace: true },
      { type: 'nav.go', to: '/home' },
    ]);
  });

  it('reportRenderError raises the error; needManifest asks for the manifest', () => {
    const sent: unknown[] = [];
    const { reportRenderError, needManifest } = appCommands((event) => sent.push(event));
    const error = createAppError({ statusCode: 500, message: 'render failed', fatal: true });
    reportRenderError(error);
    needManifest();
    expect(sent).toStrictEqual([{ type: 'error.raised', error }, { type: 'manifest.needed' }]);
  });

  it('reads the current path', async () => {
    const app = await signedOutApp();
    expect(currentPathOf(app.actor.getSnapshot())).toBeUndefined();
    app.send({ type: 'nav.popped', to: '/campaign/1' });
    await app.finishLoad({ id: 1 }, 'Garden');
    expect(currentPathOf(app.actor.getSnapshot())).toBe('/campaign/1');
  });

  it('has no prefetch view until the manifest has loaded, then its prerendered pages and the build', async () => {
    const app = await signedOutApp({ manifest: 'manual' });
    expect(prefetchView(app.actor.getSnapshot())).toBeNull();
    app.send({ type: 'manifest.needed' });
    expect(prefetchView(app.actor.getSnapshot())).toBeNull();
    await app.answerManifest({ ...testManifest, prerendered: ['/campaign/1'] });
    expect(prefetchView(app.actor.getSnapshot())).toEqual({
      prerendered: ['/campaign/1'],
      buildId: 'build-1',
    });
  });

  it('has a prefetch view without prerendered pages once the manifest has failed', async () => {
    const app = await signedOutApp({ manifest: 'manual' });
    app.send({ type: 'manifest.needed' });
    await app.failManifest(new Error('offline'));
    expect(prefetchView(app.actor.getSnapshot())).toEqual({ prerendered: null, buildId: 'build-1' });
  });
});
