// @vitest-environment happy-dom
// The page's one icon loader (getIconLoader), in a file of its own: the loader is built by the first call, so
// the test that checks its timers must be the one that builds it (in tests/platform/icons.test.ts <Icon> would).
import type { IconifyJSON } from '@iconify/types';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { config } from '../../src/config';
import { getIconLoader } from '../../src/platform/icons';

const LOCAL = config.icons.endpoint;
const PUBLIC = config.icons.fallbackEndpoint;

/** An endpoint's answer: the icons the URL names. */
function answer(url: string): Promise<Response> {
  const names = (url.split('?icons=')[1] ?? '').split(',');
  const set: IconifyJSON = {
    prefix: 'lucide',
    icons: Object.fromEntries(names.map((name) => [name, { body: '<path d="M3 12h18"/>' }])),
  };
  return Promise.resolve(new Response(JSON.stringify(set)));
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

it('is one loader for the page: global fetch at the next frame, its timeout on the page’s clock', async () => {
  // The endpoint answers `fast` and never answers `slow`; the public API answers both.
  const fetchSpy = vi.fn((url: string) =>
    url.startsWith(LOCAL) && url.includes('slow') ? new Promise<Response>(() => {}) : answer(url),
  );
  vi.stubGlobal('fetch', fetchSpy);
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  const loader = getIconLoader();
  expect(getIconLoader()).toBe(loader);

  loader.request('lucide:fast');
  expect(fetchSpy).not.toHaveBeenCalled();
  await vi.advanceTimersToNextFrame();
  expect(fetchSpy).toHaveBeenCalledWith(`${LOCAL}/lucide.json?icons=fast`, expect.objectContaining({}));
  await vi.advanceTimersByTimeAsync(0);
  expect(loader.state('lucide:fast').status).toBe('loaded');
  // The answered request's timeout is cleared: nothing fires later.
  expect(vi.getTimerCount()).toBe(0);

  loader.request('lucide:slow');
  await vi.advanceTimersToNextFrame();
  await vi.advanceTimersByTimeAsync(config.icons.fetchTimeoutMs - 1);
  expect(fetchSpy).toHaveBeenCalledTimes(2);
  await vi.advanceTimersByTimeAsync(1);
  expect(fetchSpy).toHaveBeenLastCalledWith(`${PUBLIC}/lucide.json?icons=slow`, expect.objectContaining({}));
  await vi.advanceTimersByTimeAsync(0);
  expect(loader.state('lucide:slow').status).toBe('loaded');
});

it('flushes on a zero-delay timer where there are no animation frames', async () => {
  const fetchSpy = vi.fn(answer);
  vi.stubGlobal('fetch', fetchSpy);
  vi.stubGlobal('requestAnimationFrame', undefined);
  const loader = getIconLoader();
  loader.request('lucide:no-frames');
  expect(fetchSpy).not.toHaveBeenCalled();
  await vi.advanceTimersByTimeAsync(0);
  expect(fetchSpy).toHaveBeenCalledTimes(1);
  expect(loader.state('lucide:no-frames').status).toBe('loaded');
});
