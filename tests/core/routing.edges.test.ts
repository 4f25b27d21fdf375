/**
 * The route table, the route rules, the guards, the error model and the payload helpers at the edges the
 * other tests left open. Written from the mutants that survived them.
 */
import { describe, expect, it } from 'vitest';
import { type PagePayload, parsePayload, serializeInlinePayload } from '../../core/payload';
import { parseManifest, renderedPaths, routeRules, rulesFor } from '../../core/routeRules';
import {
  findRoute,
  matchRoute,
  normalizePath,
  parseLocation,
  type RouteName,
  type RouteRecord,
} from '../../core/routes';
import { manifestRouteRule, UnknownGuardError } from '../../machines/app/app.navigation';
import { toAppError } from '../../machines/app/errorCatalogue';
import { flush, startApp } from '../support/appHarness';

describe('the route table in the app', () => {
  it.each([
    ['/home', true, 'home', 'Your campaigns | campaign-web'],
    ['/profile', true, 'profile', 'Your profile | campaign-web'],
    ['/campaign/components/info', false, 'campaignComponentsInfo', 'Component gallery | campaign-web'],
  ])(
    'opens %s and titles it from the table when the page gives no title',
    async (path, signedIn, route, title) => {
      const app = await startApp();
      app.send({ type: 'session.changed', signedIn });
      app.send({ type: 'nav.popped', to: path });
      expect(app.loads.at(-1)?.input.route).toBe(route);
      await app.finishLoad();
      expect(app.actor.getSnapshot().context.current?.route).toBe(route);
      expect(app.titles.at(-1)).toBe(title);
    },
  );

  it('refuses a guard redirect that leaves the app with a fatal 500', async () => {
    const app = await startApp();
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.go', to: '/outside' });
    await flush();
    expect(app.actor.getSnapshot().context.error).toMatchObject({ statusCode: 500, fatal: true });
  });
});

describe('parseLocation at its edges', () => {
  it.each(['/\t/evil.example', '/\n/evil.example', '/\r/evil.example'])(
    'refuses %j, which the URL parser reads as another host',
    (target) => expect(parseLocation(target)).toBeNull(),
  );

  it('refuses a target the URL parser cannot read once its tab is dropped, without throwing', () => {
    expect(parseLocation('/\t/[')).toBeNull();
    expect(parseLocation('/\t/a b')).toBeNull();
  });

  it('keeps paths that only end in a double separator', () => {
    expect(parseLocation('/campaign/1//')).toEqual({ pathname: '/campaign/1//', search: '', hash: '' });
    expect(parseLocation('/a/\\')).toEqual({ pathname: '/a//', search: '', hash: '' });
  });
});

describe('normalizePath at its edges', () => {
  it('refuses a relative path that has a separator only later on', () => {
    expect(normalizePath('campaign/1')).toBeNull();
    expect(normalizePath('a\\b')).toBeNull();
  });

  it('keeps a first segment with a colon as a path, never reading it as a scheme', () => {
    expect(normalizePath('/mailto:someone')).toBe('/mailto:someone');
    expect(normalizePath('//note:1')).toBe('/note:1');
  });
});

describe('matchRoute on a table of its own', () => {
  const routeAt = (name: RouteName, path: string): RouteRecord => ({ ...findRoute(name), path });
  const byParam = routeAt('campaign', '/campaign/:id');
  const fixed = routeAt('home', '/campaign/new');

  it('lets static segments win over a parameter, whichever is listed first', () => {
    expect(matchRoute('/campaign/new', [byParam, fixed])?.route).toBe(fixed);
    expect(matchRoute('/campaign/new', [fixed, byParam])?.route).toBe(fixed);
    expect(matchRoute('/campaign/7', [fixed, byParam])).toEqual({ route: byParam, params: { id: '7' } });
  });

  it('lets the route listed first win a tie', () => {
    const left = routeAt('home', '/a/:x');
    const right = routeAt('profile', '/:y/b');
    expect(matchRoute('/a/b', [left, right])).toEqual({ route: left, params: { x: 'b' } });
    expect(matchRoute('/a/b', [right, left])).toEqual({ route: right, params: { y: 'a' } });
  });
});

describe('findRoute', () => {
  it('names a route the table does not have', () => {
    expect(() => findRoute('nope' as RouteName)).toThrow("No route named 'nope'.");
    expect(() => findRoute('home', [findRoute('index')])).toThrow("No route named 'home'.");
  });
});

describe('the shipped route rules', () => {
  it.each([
    ['/campaigns', '/'],
    ['/campaigns/7', '/'],
    ['/signin', '/login'],
    ['/SignIn/', '/login'],
    ['/campaign/components', '/campaign/components/info'],
  ])('redirect %s to %s', (path, to) => expect(rulesFor(path, routeRules).redirect).toBe(to));

  it('leave the pages themselves alone', () => {
    for (const path of ['/', '/login', '/campaign/1', '/campaign/components/info']) {
      expect(rulesFor(path, routeRules).redirect, path).toBeUndefined();
    }
  });
});

describe('route rules at their edges', () => {
  it('let the most specific rule win whatever order the table lists them in', () => {
    const table = {
      '/old/special/exact': { redirect: '/exact' },
      '/old/special/**': { redirect: '/special' },
      '/old/**': { redirect: '/new' },
    };
    expect(rulesFor('/old/special/exact', table).redirect).toBe('/exact');
    expect(rulesFor('/old/special/b', table).redirect).toBe('/special');
    expect(rulesFor('/old/a', table).redirect).toBe('/new');
  });

  it('merge the keys of every matching rule, the specific one winning per key', () => {
    const table = { '/a': { redirect: '/b' }, '/**': { prerender: true, redirect: '/c' } };
    expect(rulesFor('/a', table)).toEqual({ prerender: true, redirect: '/b' });
  });

  it('are refused in a manifest when a prerender flag is not a boolean', () => {
    const manifest = { id: 'b1', timestamp: 1, prerendered: [] };
    expect(parseManifest({ ...manifest, rules: { '/a': { prerender: 'yes' } } })).toBeNull();
    expect(parseManifest({ ...manifest, rules: { '/a': { prerender: false } } })?.rules).toEqual({
      '/a': { prerender: false },
    });
  });

  it('render every page under a prefix, and list the prefix rather than its pages', () => {
    expect(renderedPaths(routeRules)).toContain('/campaign/**');
    expect(renderedPaths(routeRules).filter((path) => path.startsWith('/campaign/'))).toEqual([
      '/campaign/**',
      '/campaign/components/info',
    ]);
  });
});

describe('manifest route rule guard', () => {
  it('keeps the hash a rule sets itself rather than adding the one of the destination', () => {
    const to = parseLocation('/old#top');
    if (!to) throw new Error('bad target');
    const rules = { '/old': { redirect: '/new#section' } };
    expect(manifestRouteRule({ to, match: null, signedIn: false, rules })).toEqual({
      type: 'redirect',
      to: '/new#section',
    });
  });
});

describe('UnknownGuardError', () => {
  it('says what it is where a developer reads it', () => {
    expect(String(new UnknownGuardError('nope'))).toBe(
      "UnknownGuardError: Unknown route middleware: 'nope'.",
    );
  });
});

describe('toAppError', () => {
  it('turns a thrown undefined (a rejection without a reason) into the generic 500', () => {
    expect(toAppError(undefined)).toEqual({
      statusCode: 500,
      message: 'Something went wrong.',
      fatal: false,
    });
    expect(toAppError(undefined, '/campaign/1')).toMatchObject({ statusCode: 500, path: '/campaign/1' });
  });
});

describe('payloads at their edges', () => {
  it('refuses an undefined body without throwing', () => {
    expect(parsePayload(undefined, { buildId: 'b1', path: '/' })).toBeNull();
  });

  it('inlines ampersands and paragraph separators escaped, and reads them back unchanged', () => {
    const payload: PagePayload = {
      buildId: 'b1',
      path: '/campaign/1',
      data: { title: 'Bread & roses\u2029' },
    };
    const text = serializeInlinePayload(payload);
    expect(text).not.toMatch(/[&\u2029]/);
    expect(JSON.parse(text)).toEqual(payload);
  });
});
