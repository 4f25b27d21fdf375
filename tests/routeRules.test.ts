import { describe, expect, it } from 'vitest';
import { manifestRouteRule } from '../machines/guards';
import { parseLatestBuild, parseManifest, routeRules, rulesFor } from '../machines/routeRules';
import { parseLocation } from '../machines/routes';

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

  it('reads only well-formed manifests and build descriptors', () => {
    expect(parseManifest({ id: 'b', timestamp: 1, rules: routeRules, prerendered: [] })?.rules).toBe(
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
    for (const rule of Object.values(routeRules)) expect(parseLocation(rule.redirect ?? '')).not.toBeNull();
  });
});
