import { describe, expect, it } from 'vitest';
import { isPrerendered, parsePayload, payloadUrl } from '../../core/payload';
import { prerenderPaths, routeRules } from '../../core/routeRules';

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

  it('knows a prerendered path from the manifest’s list only', () => {
    expect(isPrerendered('/campaign/1/', ['/campaign/1'])).toBe(true);
    expect(isPrerendered('/campaign/9', ['/campaign/1'])).toBe(false);
    expect(isPrerendered('/campaign/1', null)).toBe(false);
  });
});

describe('what is prerendered', () => {
  it('is the public pages and one page per public campaign; never a guarded or redirected path', () => {
    const paths = prerenderPaths(routeRules, { '/campaign': ['1', '2', 'components', '../x'] });
    expect(paths).toEqual(['/', '/campaign/1', '/campaign/2', '/campaign/components/info', '/login']);
    expect(paths).not.toContain('/home');
    expect(paths).not.toContain('/profile');
  });

  it('expands a prefix only with the items given for it', () => {
    expect(prerenderPaths({ '/a/**': { prerender: true }, '/b': { prerender: false } }, {})).toEqual([]);
    expect(prerenderPaths({ '/a/**': { prerender: true } }, { '/a': ['x', 'y'] })).toEqual(['/a/x', '/a/y']);
  });
});
