// @vitest-environment node
/**
 * What the machines read from outside (build manifests, latest.json, anything a page throws) at its edges:
 * each malformed shape is refused on its own, and each accepted field is kept exactly. Written from the
 * mutants that survived the other tests.
 */
import { describe, expect, it } from 'vitest';
import { parseLatestBuild, parseManifest, rulesFor } from '../../../core/routeRules';
import { createAppError, echoPath, toAppError, validationError } from '../../../machines/app/errorCatalogue';

const manifest = { id: 'b1', timestamp: 1, rules: { '/old': { redirect: '/new' } }, prerendered: ['/'] };

describe('latest.json', () => {
  it('is read only as a non-empty id with a numeric timestamp, from an object', () => {
    expect(parseLatestBuild({ id: 'b2', timestamp: 2 })).toEqual({ id: 'b2', timestamp: 2 });
    for (const raw of [
      null,
      'b2',
      [{ id: 'b2', timestamp: 2 }],
      { id: '', timestamp: 2 },
      { id: 2, timestamp: 2 },
      { id: 'b2', timestamp: '2' },
      { id: 'b2' },
    ]) {
      expect(parseLatestBuild(raw), JSON.stringify(raw)).toBeNull();
    }
  });
});

describe('build manifest', () => {
  it('keeps every field of a good one', () => {
    expect(parseManifest(manifest)).toEqual(manifest);
    expect(parseManifest({ ...manifest, rules: {} })).toEqual({ ...manifest, rules: {} });
  });

  it('refuses each malformed part on its own', () => {
    const broken = [
      null,
      [manifest],
      { ...manifest, id: 1 },
      { ...manifest, timestamp: '1' },
      { ...manifest, rules: null },
      { ...manifest, rules: [] },
      { ...manifest, rules: { old: { redirect: '/new' } } },
      { ...manifest, rules: { '/old': 'redirect' } },
      { ...manifest, rules: { '/old': { redirect: 3 } } },
      { ...manifest, rules: { '/a': {}, '/old': { redirect: 3 } } },
      { ...manifest, prerendered: '/' },
      { ...manifest, prerendered: ['/', 3] },
    ];
    for (const raw of broken) expect(parseManifest(raw), JSON.stringify(raw)).toBeNull();
  });

  it('keeps a rule without a redirect as it is', () => {
    const rules = { '/a/**': { ssr: false }, '/b': { redirect: '//b' } };
    expect(parseManifest({ ...manifest, rules })?.rules).toEqual({
      '/a/**': { ssr: false },
      '/b': { redirect: '/b' },
    });
  });

  it('lets the most specific rule win per key: exact over prefix, longer prefix over shorter', () => {
    const table = {
      '/**': { redirect: '/root', headers: 'all' },
      '/a/**': { redirect: '/a-prefix' },
      '/a/b/**': { redirect: '/ab-prefix' },
      '/a/b/c': { redirect: '/exact' },
    } as unknown as Parameters<typeof rulesFor>[1];
    expect(rulesFor('/a/b/c', table)).toEqual({ redirect: '/exact', headers: 'all' });
    expect(rulesFor('/a/b/d', table)).toEqual({ redirect: '/ab-prefix', headers: 'all' });
    expect(rulesFor('/a/x', table)).toEqual({ redirect: '/a-prefix', headers: 'all' });
    expect(rulesFor('/A/B/C/', table)).toEqual({ redirect: '/exact', headers: 'all' });
    expect(rulesFor('/', { '/': { redirect: '/home' } })).toEqual({ redirect: '/home' });
    expect(rulesFor('/x', {})).toEqual({});
  });
});

describe('errors', () => {
  it('keeps a status code from 100 to 999 and makes anything else a 500', () => {
    for (const statusCode of [100, 404, 999])
      expect(createAppError({ statusCode }).statusCode).toBe(statusCode);
    for (const statusCode of [99, 1000, 404.5, undefined])
      expect(createAppError({ statusCode }).statusCode).toBe(500);
  });

  it('fills in what is missing, and adds only the optional fields that were given', () => {
    expect(createAppError('boom')).toEqual({ statusCode: 500, message: 'boom', fatal: false });
    expect(createAppError({})).toEqual({ statusCode: 500, message: '', fatal: false });
    expect(createAppError({ statusMessage: 'Gone' })).toEqual({
      statusCode: 500,
      message: 'Gone',
      fatal: false,
      statusMessage: 'Gone',
    });
    expect(createAppError({ fatal: true, path: '/x', message: 'm' })).toEqual({
      statusCode: 500,
      message: 'm',
      fatal: true,
      path: '/x',
    });
  });

  it('cuts an echoed path only when it is longer than the limit', () => {
    expect(echoPath('/abcd', 5)).toBe('/abcd');
    expect(echoPath('/abcde', 5)).toBe('/abc…');
  });

  it('words a failed validate rule as the spec does, or as the rule says', () => {
    expect(validationError('/campaign/0', 40, false)).toEqual({
      statusCode: 404,
      message: 'Page Not Found: /campaign/0',
      fatal: true,
      path: '/campaign/0',
    });
    expect(validationError('/campaign/0', 40, { statusCode: 410, statusMessage: 'Gone' })).toEqual({
      statusCode: 410,
      message: 'Gone',
      statusMessage: 'Gone',
      fatal: true,
      path: '/campaign/0',
    });
    expect(validationError('/campaign/0', 40, {})).not.toHaveProperty('statusMessage');
  });

  it('turns anything thrown into an error, keeping only fields of the right type', () => {
    expect(toAppError('boom', '/p')).toEqual({ statusCode: 500, message: 'boom', fatal: false, path: '/p' });
    expect(toAppError(42, '/p')).toEqual({
      statusCode: 500,
      message: 'Something went wrong.',
      fatal: false,
      path: '/p',
    });
    expect(toAppError(null)).toEqual({ statusCode: 500, message: 'Something went wrong.', fatal: false });
    expect(toAppError({ status: 404, message: '' })).toEqual({
      statusCode: 404,
      message: 'Something went wrong.',
      fatal: false,
    });
    expect(toAppError({ statusCode: 410, status: 404, message: 7, fatal: 'yes', statusMessage: 5 })).toEqual({
      statusCode: 410,
      message: 'Something went wrong.',
      fatal: false,
    });
    expect(toAppError({ message: 'Nope', fatal: true, statusMessage: 'Gone' }, '/p')).toEqual({
      statusCode: 500,
      message: 'Nope',
      fatal: true,
      statusMessage: 'Gone',
      path: '/p',
    });
  });
});
