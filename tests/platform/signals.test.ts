// Request signals (src/platform/signals.ts): a caller's signal combined with a timeout, on browsers with and
// without `AbortSignal.any` (`{}` as the statics takes the fallback). The API client's use of them is in
// tests/platform/api.timeout.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { anySignal, withTimeout } from '../../src/platform/signals';

describe('combining signals without AbortSignal.any', () => {
  it('stops listening to every source once disposed', () => {
    const a = new AbortController();
    const b = new AbortController();
    const combined = anySignal([a.signal, b.signal], {});
    combined.dispose();
    a.abort('late');
    b.abort('later');
    expect(combined.signal.aborted).toBe(false);
  });

  it('aborts with the reason of whichever source aborts, a later one too', () => {
    const a = new AbortController();
    const b = new AbortController();
    const combined = anySignal([a.signal, b.signal], {});
    b.abort('second');
    expect(combined.signal.reason).toBe('second');
  });

  it('listens to nothing when a source has already aborted', () => {
    const live = new AbortController();
    const later = new AbortController();
    const done = new AbortController();
    done.abort('gone');
    const removed = vi.spyOn(live.signal, 'removeEventListener');
    const added = vi.spyOn(later.signal, 'addEventListener');
    const combined = anySignal([live.signal, done.signal, later.signal], {});
    expect(combined.signal.reason).toBe('gone');
    // The source before the aborted one is let go of, the one after it is never listened to.
    expect(removed).toHaveBeenCalledWith('abort', expect.any(Function));
    expect(added).not.toHaveBeenCalled();
  });
});

describe('a timed signal', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('aborts after its time with a TimeoutError that says how long it waited', () => {
    const timed = withTimeout(undefined, 1_500, {});
    vi.advanceTimersByTime(1_499);
    expect(timed.signal.aborted).toBe(false);
    expect(timed.timedOut()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(timed.signal.aborted).toBe(true);
    expect(timed.signal.reason).toBeInstanceOf(DOMException);
    expect(timed.signal.reason).toMatchObject({ name: 'TimeoutError', message: 'No answer within 1500 ms.' });
    expect(timed.timedOut()).toBe(true);
  });

  it.each([
    ['without AbortSignal.any', {}],
    ['with AbortSignal.any', AbortSignal],
  ])('combines the caller’s signal with the timeout %s', (_, statics) => {
    const caller = new AbortController();
    const timed = withTimeout(caller.signal, 1_000, statics);
    caller.abort('navigated away');
    expect(timed.signal.aborted).toBe(true);
    expect(timed.signal.reason).toBe('navigated away');
    // The caller's abort is no timeout, even once the time has passed.
    vi.advanceTimersByTime(1_000);
    expect(timed.timedOut()).toBe(false);

    const waiting = withTimeout(new AbortController().signal, 1_000, statics);
    vi.advanceTimersByTime(1_000);
    expect(waiting.signal.aborted).toBe(true);
    expect(waiting.timedOut()).toBe(true);
  });

  it('forgets the caller’s signal once disposed', () => {
    const caller = new AbortController();
    const timed = withTimeout(caller.signal, 1_000, {});
    timed.dispose();
    caller.abort('after the answer');
    vi.advanceTimersByTime(1_000);
    expect(timed.signal.aborted).toBe(false);
  });
});
