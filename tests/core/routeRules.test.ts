import { describe, expect, it } from 'vitest';
import { parseLatestBuild, parseManifest, routeRules, rulesFor } from '../../core/routeRules';
import { parseLocation } from '../../core/routes';
import { manifestRouteRule } from '../../machines/app/app.navigation';

describe('route rules', () => {
  const table = {
    '/old/**': { redirect: '/new' },
    '/old/special/**': { redirect: '/special' },
    '/old/special/exact': { redirect: '/exact' },
  };

  it('lets the most specific rule win: exact over long prefix over short prefix', () => {
    expect(rulesFor('/old/a', table).redirect).toBe('/new');
    expect(rulesFor('/old/special/b', table).redirect).toBe('/special');
    expect(rulesFor('/old/special/exact/', table).redirect).toBe('/exact');
    expect(rulesFor('/OLD', table).redirect).toBe('/new');
    expect(rulesFor('/older', table).redirect).toBeUndefined();
  });

  it('redirects through the manifest guard, keeping the hash', () => {
    const to = parseLocation('/campaigns/9#top');
    if (!to) throw new Error('bad');
    expect(manifestRouteRule({ to, match: null, signedIn: false, rules: routeRules })).toEqual({
      type: 'redirect',
      to: '/#top',
    });
    expect(manifestRouteRule({ to, match: null, signedIn: false, rules: null })).toEqual({ type: 'allow' });
  });

  it('normalises redirect targets where the manifest enters the app, so none starts with // (regression)', () => {
    const rules = {
      '/a': { redirect: '//home' },
      '/b': { redirect: '/..//home?x=1#y' },
      '/c': { redirect: '/\\home' },
      '/d': { redirect: 'https://elsewhere.example/' },
    };
    const parsed = parseManifest({ id: 'b', timestamp: 1, rules, prerendered: [] })?.rules;
    expect(parsed).toEqual({
      '/a': { redirect: '/home' },
      '/b': { redirect: '/home?x=1#y' },
      '/c': { redirect: '/home' },
      // No path: kept, and the router refuses it with the 500 view.
      '/d': { redirect: 'https://elsewhere.example/' },
    });
  });

  it('reads only well-formed manifests and build descriptors', () => {
    expect(parseManifest({ id: 'b', timestamp: 1, rules: routeRules, prerendered: [] })?.rules).toEqual(
      routeRules,
    );
    expect(parseManifest({ id: 'b', timestamp: 1, rules: 'nope', prerendered: [] })).toBeNull();
    expect(parseManifest({ id: 'b', timestamp: 1, rules: { nope: {} }, prerendered: [] })).toBeNull();
    expect(parseManifest('<html>')).toBeNull();
    expect(parseLatestBuild({ id: 'b', timestamp: 2 })).toEqual({ id: 'b', timestamp: 2 });
    expect(parseLatestBuild({ id: '', timestamp: 2 })).toBeNull();
    expect(parseLatestBuild('<html>captive</html>')).toBeNull();
  });

  it('redirects only to paths of this app', () => {
    const redirects = Object.values(routeRules).flatMap((rule) => (rule.redirect ? [rule.redirect] : []));
    expect(redirects.length).toBeGreaterThan(0);
    for (const redirect of redirects) expect(parseLocation(redirect)).not.toBeNull();
  });
});
