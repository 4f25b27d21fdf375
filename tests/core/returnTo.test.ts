import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RETURN_TO, loginPathFor, safeReturnTo } from '../../core/returnTo';

const ORIGIN = 'https://campaign-web.test';

/** Paths built from the pieces open-redirect payloads are made of: separators, dot segments, escapes. */
const pathPieces = fc
  .array(
    fc.constantFrom(
      '/',
      '/.',
      '/..',
      '/%2e',
      '/%2e%2e',
      '/.%2E',
      '\\',
      '/evil.example',
      '/home',
      '?x=/',
      '#/',
      '\t',
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((pieces) => pieces.join(''));

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
    // Dot segments that resolve to a protocol-relative path (the audit's payloads).
    '/..//evil.example',
    '/.//evil.example',
    '/%2e%2e//evil.example',
    '/%2E%2E//evil.example',
    '/.%2e//evil.example',
    '/a/../..//evil.example',
    '/%2e//evil.example',
    `/${'\u0000'}x`,
    '/\u0085x',
  ])('falls back to /home for %j', (raw) => expect(safeReturnTo(raw)).toBe(DEFAULT_RETURN_TO));

  it('returns the path normalised: dot segments resolved', () => {
    expect(safeReturnTo('/campaign/./3/../3?x=1')).toBe('/campaign/3?x=1');
    expect(safeReturnTo('/a/%2e%2e/profile')).toBe('/profile');
  });

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
          pathPieces,
        ),
        // A plain predicate (no expect per run) keeps 2,000 runs quick on a busy machine; fast-check prints the
        // counterexample when it returns false.
        (raw) => {
          const result = safeReturnTo(raw);
          // Resolved against the origin by the WHATWG URL parser, it stays there and is not protocol-relative.
          const url = new URL(result, ORIGIN);
          return (
            result.startsWith('/') &&
            !result.startsWith('//') &&
            !result.includes('\\') &&
            url.origin === ORIGIN &&
            !url.pathname.startsWith('//') &&
            `${url.pathname}${url.search}${url.hash}` === result
          );
        },
      ),
      { numRuns: 2000 },
    );
  }, 20_000);
});

describe('loginPathFor', () => {
  it('carries the full path, encoded', () => {
    expect(loginPathFor('/profile?tab=a&b=c')).toBe('/login?redirect=%2Fprofile%3Ftab%3Da%26b%3Dc');
  });
});
