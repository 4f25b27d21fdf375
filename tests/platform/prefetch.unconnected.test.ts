// @vitest-environment happy-dom
// prefetchPath before src/start.tsx has connected the page registry: a file of its own, since connecting is for the
// document's life and tests/platform/prefetch.test.ts connects at once.
import { expect, it, vi } from 'vitest';
import { pageDataCache, prefetchPath } from '../../src/platform/prefetch';

it('warms nothing, and never throws, before the page registry is connected', () => {
  const fetchSpy = vi.spyOn(globalThis, 'fetch');
  const manifest = { settled: () => ({ prerendered: null, buildId: 'b0' }), whenSettled: vi.fn() };
  expect(() => prefetchPath('/campaign/1', { signedIn: true, data: 'any', manifest })).not.toThrow();
  expect(pageDataCache.size).toBe(0);
  expect(manifest.whenSettled).not.toHaveBeenCalled();
  expect(fetchSpy).not.toHaveBeenCalled();
});
