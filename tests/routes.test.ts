import { describe, expect, it } from 'vitest';
import { isCampaignId, matchRoute, parseLocation, pathTo, routes, toFullPath } from '../machines/routes';

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
    expect(routes.find((route) => route.path === '/login')?.middleware).toEqual(['guest']);
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
  ])('refuses %j', (target) => expect(parseLocation(target)).toBeNull());
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
