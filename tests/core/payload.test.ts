import { describe, expect, it } from 'vitest';
import { isPrerendered, parsePayload, payloadUrl } from '../../core/payload';
import { isRenderedPath, renderedPaths, routeRules } from '../../core/routeRules';

const expected = { buildId: 'b1', path: '/campaign/1' };

describe('payload parsing', () => {
  it('accepts this build’s payload for this path, with or without data', () => {
    expect(parsePayload({ buildId: 'b1', path: '/campaign/1', data: { id: 1 } }, expected)).toEqual({
      buildId: 'b1',
      path: '/campaign/1',
      data: { id: 1 },
    });
    expect(parsePayload({ buildId: 'b1', path: '/campaign/1/' }, expected)).toEqual({
      buildId: 'b1',
      path: '/campaign/1/',
    });
    expect(parsePayload({ buildId: 'b1', path: '/campaign/1', data: null }, expected)?.data).toBeNull();
  });

  it('refuses another build’s payload, another page’s, and anything that is not a payload', () => {
    for (const raw of [
      { buildId: 'b0', path: '/campaign/1', data: {} },
      { buildId: 'b1', path: '/campaign/2', data: {} },
      { buildId: 'b1', data: {} },
      '<!doctype html><title>Sign in to the Wi-Fi</title>',
      null,
      [{ buildId: 'b1', path: '/campaign/1' }],
      42,
    ]) {
      expect(parsePayload(raw, expected)).toBeNull();
    }
  });
});

describe('payload locations', () => {
  it('puts the payload beside the page, with the build id as the query and the page query dropped', () => {
    expect(payloadUrl('/campaign/1', 'b1')).toBe('/campaign/1/_payload.json?b1');
    expect(payloadUrl('/campaign/1/', 'b 1')).toBe('/campaign/1/_payload.json?b%201');
    expect(payloadUrl('/', 'b1')).toBe('/_payload.json?b1');
    expect(payloadUrl('/login', 'b1', '/app/')).toBe('/app/login/_payload.json?b1');
  });

  it('knows a rendered path from the manifest’s list of paths and prefixes only', () => {
    expect(isPrerendered('/campaign/1/', ['/campaign/1'])).toBe(true);
    expect(isPrerendered('/campaign/9', ['/campaign/1'])).toBe(false);
    expect(isPrerendered('/campaign/1', null)).toBe(false);
    expect(isPrerendered('/campaign/9', ['/campaign/**'])).toBe(true);
    expect(isPrerendered('/campaign/9/', ['/campaign/**'])).toBe(true);
    // The prefix itself, and a path that only starts with its letters, are not under it.
    expect(isPrerendered('/campaign', ['/campaign/**'])).toBe(false);
    expect(isPrerendered('/campaigns/9', ['/campaign/**'])).toBe(false);
    expect(isPrerendered('/', ['/campaign/**'])).toBe(false);
  });
});

describe('what the server renders', () => {
  it('is the public pages and every campaign page; never a guarded or redirected path', () => {
    const paths = renderedPaths(routeRules);
    expect(paths).toEqual(['/', '/campaign/**', '/campaign/components/info', '/login']);
    for (const path of ['/', '/login', '/campaign/1', '/campaign/999999', '/campaign/components/info'])
      expect(isRenderedPath(path, routeRules), path).toBe(true);
    // Signed-in pages, redirected paths and paths no rule covers get the SPA shell.
    for (const path of [
      '/home',
      '/profile',
      '/campaign/components',
      '/campaigns/1',
      '/campaign',
      '/campaign/1.5',
    ])
      expect(isRenderedPath(path, routeRules), path).toBe(false);
  });

  it('lists a prefix as it is and leaves out rules without prerender', () => {
    expect(renderedPaths({ '/a/**': { prerender: true }, '/b': { prerender: false } })).toEqual(['/a/**']);
    expect(renderedPaths({ '/a/': { prerender: true }, '/c': { prerender: true, redirect: '/' } })).toEqual([
      '/a',
    ]);
  });
});
