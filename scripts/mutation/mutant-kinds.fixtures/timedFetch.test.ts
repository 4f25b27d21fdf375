// timedFetch.ts's test: what scripts/mutation/mutant-kinds.test.mjs runs against CleanupFirst's mutants of it (and,
// a file of its own, shows with it that a run of some test files counts only their results).
import { afterEach, expect, it, vi } from 'vitest';
import { type Fetch, getJson } from './timedFetch';

afterEach(() => {
  vi.useRealTimers();
});

it('gives up on an answer whose body stalls past the deadline', async () => {
  vi.useFakeTimers();
  const stalled: Fetch = async (_url, { signal }) => ({
    json: () => new Promise((_done, fail) => signal.addEventListener('abort', () => fail(signal.reason))),
  });
  let outcome = 'pending';
  getJson(stalled, '/campaigns', 1_000).then(
    () => {
      outcome = 'answered';
    },
    (error: Error) => {
      outcome = error.message;
    },
  );
  await vi.advanceTimersByTimeAsync(1_000);
  expect(outcome).toBe('No answer within 1000 ms');
});
