import { describe, expect, it } from 'vitest';
import {
  isCampaignId,
  matchRoute,
  normalizePath,
  parseLocation,
  pathTo,
  routes,
  toFullPath,
} from '../../core/routes';

describe('route table', () => {
  it('has exactly the six routes of the spec, all in the default layout', () => {
    expect(routes.map((route) => route.path)).toEqual([
      '/',
      '/home',
      '/login',
      '/campaign/:id',
      '/profile',
      '/campaign/components/info',
    ]);
    expect(new Set(routes.map((route) => route.layout))).toEqual(new Set(['default']));
    expect(routes.filter((route) => route.requiresAuth).map((route) => route.path)).toEqual([
      '/home',
      '/profile',
    ]);
    expect(routes.find((route) => route.path === '/login')?.guards).toEqual(['guest']);
  });
});

describe('matchRoute', () => {
  it.each([
    ['/', 'index', {}],
    ['/home', 'home', {}],
    ['/HOME/', 'home', {}],
    ['/campaign/42', 'campaign', { id: '42' }],
    ['/campaign/components/info', 'campaignComponentsInfo', {}],
    ['/campaign/components', 'campaign', { id: 'components' }],
    ['/campaign/%E0%A4%A', 'campaign', { id: '%E0%A4%A' }],
    ['/campaign/caf%C3%A9', 'campaign', { id: 'café' }],
  ])('%s is %s', (path, name, params) => {
    const match = matchRoute(path);
    expect(match?.route.name).toBe(name);
    expect(match?.params).toEqual(params);
  });

  it.each(['/nope', '/campaign', '/campaign/1/2', '/home/extra'])('%s matches nothing', (path) => {
    expect(matchRoute(path)).toBeNull();
  });
});

describe('campaign id rule', () => {
  it.each(['1', '42', '9007199254740991'])('accepts %s', (id) => expect(isCampaignId(id)).toBe(true));
  it.each(['0', '01', '-1', '1.5', 'abc', '', ' 1', '1e3', '9007199254740993'])('rejects %j', (id) =>
    expect(isCampaignId(id)).toBe(false),
  );
});

describe('parseLocation', () => {
  it('splits an app path', () => {
    expect(parseLocation('/a/b?x=1#top')).toEqual({ pathname: '/a/b', search: '?x=1', hash: '#top' });
  });
  it.each([
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    'javascript:alert(1)',
    'relative',
    '',
    // Resolved by the URL parser, these start with `//`: another host to a browser.
    '/..//evil.example',
    '/.//evil.example',
    '/%2e%2e//evil.example',
    '/a\\..\\..\\/evil.example',
  ])('refuses %j', (target) => expect(parseLocation(target)).toBeNull());
  it('resolves dot segments as the browser does', () => {
    expect(parseLocation('/a/./b/../c?x#y')).toEqual({ pathname: '/a/c', search: '?x', hash: '#y' });
  });
  it('round-trips through toFullPath', () => {
    const location = parseLocation('/campaign/1?tab=a%20b#x');
    expect(location && toFullPath(location)).toBe('/campaign/1?tab=a%20b#x');
  });
});

describe('pathTo', () => {
  it('fills and encodes parameters', () => {
    expect(pathTo('campaign', { id: 7 })).toBe('/campaign/7');
    expect(pathTo('campaign', { id: 'a/b' })).toBe('/campaign/a%2Fb');
  });
  it('names a missing parameter', () => {
    expect(() => pathTo('campaign')).toThrow("Route 'campaign' needs the parameter 'id'.");
  });
});

describe('normalizePath (where a location enters the app)', () => {
  it.each([
    ['//home', '/home'],
    ['//', '/'],
    ['///campaign/1', '/campaign/1'],
    ['/\\evil.example', '/evil.example'],
    ['\\\\evil.example', '/evil.example'],
    ['/..//evil.example', '/evil.example'],
    ['/.//evil.example', '/evil.example'],
    ['/%2e%2e//evil.example', '/evil.example'],
    ['/\t/evil.example', '/evil.example'],
    ['/a/../home?x=1#y', '/home?x=1#y'],
    ['/campaign//1', '/campaign//1'],
    ['/home', '/home'],
  ])('%j is %j', (raw, expected) => expect(normalizePath(raw)).toBe(expected));

  it.each(['', 'home', 'https://evil.example/', 'javascript:alert(1)'])('%j is no path', (raw) =>
    expect(normalizePath(raw)).toBeNull(),
  );

  it('what it gives back is accepted by parseLocation and normalises to itself', () => {
    for (const raw of ['//home', '/..//x', '/\\/\\x', '/%2e%2e/%2e%2e//x?a=//b#//c', '///']) {
      const normalised = normalizePath(raw) ?? '';
      expect(parseLocation(normalised)).not.toBeNull();
      expect(normalizePath(normalised)).toBe(normalised);
    }
  });
});
