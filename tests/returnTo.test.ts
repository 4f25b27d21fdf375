import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETURN_TO, loginPathFor, safeReturnTo } from '../machines/returnTo';

const ORIGIN = 'https://campaign-web.test';

describe('safeReturnTo', () => {
  it.each([
    ['/profile', '/profile'],
    ['/campaign/3?tab=about#top', '/campaign/3?tab=about#top'],
    ['/no/such/page', '/no/such/page'],
  ])('keeps the same-origin path %s', (raw, expected) => expect(safeReturnTo(raw)).toBe(expected));

  it.each([
    null,
    undefined,
    '',
    '//evil.example',
    '/\\evil.example',
    '\\/evil.example',
    'https:evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    'JAVASCRIPT:alert(1)',
    '/\t/evil.example',
    '/\n/evil.example',
    'evil.example',
    '/login',
    '/LOGIN/',
    '/login?redirect=/home',
    '/a/../login',
    `/${'\u0000'}x`,
    '/\u0085x',
  ])('falls back to /home for %j', (raw) => expect(safeReturnTo(raw)).toBe(DEFAULT_RETURN_TO));

  it('keeps percent-escapes as escapes, so they cannot turn into another host', () => {
    expect(safeReturnTo('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
    expect(new URL(safeReturnTo('/%2F%2Fevil.example'), ORIGIN).origin).toBe(ORIGIN);
  });

  it('whatever it accepts is a path on this origin (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.webUrl(),
          fc.string().map((s) => `/${s}`),
          fc.string().map((s) => `//${s}`),
        ),
        (raw) => {
          const result = safeReturnTo(raw);
          expect(result.startsWith('/')).toBe(true);
          expect(result.startsWith('//')).toBe(false);
          expect(result.includes('\\')).toBe(false);
          const url = new URL(result, ORIGIN);
          expect(url.origin).toBe(ORIGIN);
          expect(`${url.pathname}${url.search}${url.hash}`).toBe(result);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('loginPathFor', () => {
  it('carries the full path, encoded', () => {
    expect(loginPathFor('/profile?tab=a&b=c')).toBe('/login?redirect=%2Fprofile%3Ftab%3Da%26b%3Dc');
  });
});
