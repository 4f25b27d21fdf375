import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { config } from '../../src/config';
import { ApiError, apiRequest, createApiClient, TIMEOUT_MESSAGE } from '../../src/platform/api';
import { anySignal, withTimeout } from '../../src/platform/signals';

/** A server that never answers: the request settles only when its signal aborts, as a real fetch does. */
function neverAnswers(calls: AbortSignal[] = []) {
  return vi.fn((_url: unknown, init?: RequestInit) => {
    const signal = init?.signal ?? undefined;
    if (signal) calls.push(signal);
    return new Promise<Response>((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  });
}

/** Settles `promise` into a plain record, so a test can look at it without an unhandled rejection. */
function outcome<T>(promise: Promise<T>) {
  const record: { settled: boolean; error?: unknown; value?: T } = { settled: false };
  promise.then(
    (value) => Object.assign(record, { settled: true, value }),
    (error: unknown) => Object.assign(record, { settled: true, error }),
  );
  return record;
}

describe('API request timeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('gives up on a server that never answers, even though the caller passed a signal (regression)', async () => {
    // ofetch skips its own `timeout` whenever a signal is passed, and every caller passes one: the request
    // used to wait forever.
    vi.stubGlobal('fetch', neverAnswers());
    const caller = new AbortController();
    const result = outcome(apiRequest('/campaigns', { signal: caller.signal }));
    await vi.advanceTimersByTimeAsync(config.apiTimeoutMs - 1);
    expect(result.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(result.error).toBeInstanceOf(ApiError);
    expect(result.error).toMatchObject({ kind: 'timeout', statusCode: 504, message: TIMEOUT_MESSAGE });
    expect(TIMEOUT_MESSAGE).toMatch(/^The server took too long to answer/);
  });

  it('works without AbortSignal.any, and a cancelled request is no timeout', async () => {
    const seen: AbortSignal[] = [];
    const request = createApiClient({
      baseURL: '/api',
      timeoutMs: 1_000,
      fetch: neverAnswers(seen),
      signals: {},
    });
    const timedOut = outcome(request('/session', { signal: new AbortController().signal }));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(timedOut.error).toMatchObject({ kind: 'timeout' });

    const caller = new AbortController();
    const cancelled = outcome(request('/session', { signal: caller.signal }));
    caller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(cancelled.error).toMatchObject({ kind: 'aborted' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(cancelled.error).toMatchObject({ kind: 'aborted' });
    expect(seen).toHaveLength(2);
  });
});

describe('signals', () => {
  it('the fallback combination aborts with the first reason and lets go of its sources', () => {
    const a = new AbortController();
    const b = new AbortController();
    const removed = vi.spyOn(b.signal, 'removeEventListener');
    const { signal } = anySignal([a.signal, b.signal], {});
    expect(signal.aborted).toBe(false);
    a.abort('first');
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe('first');
    expect(removed).toHaveBeenCalled();
    b.abort('second');
    expect(signal.reason).toBe('first');
  });

  it('an already aborted source aborts the combination at once', () => {
    const done = new AbortController();
    done.abort('gone');
    expect(anySignal([done.signal, new AbortController().signal], {}).signal.reason).toBe('gone');
  });

  it('uses AbortSignal.any where there is one', () => {
    const any = vi.fn((signals: AbortSignal[]) => signals[0] as AbortSignal);
    const source = new AbortController().signal;
    expect(anySignal([source], { any }).signal).toBe(source);
    expect(any).toHaveBeenCalledOnce();
  });

  it('a disposed timeout never fires', () => {
    vi.useFakeTimers();
    const timed = withTimeout(undefined, 100, {});
    timed.dispose();
    vi.advanceTimersByTime(200);
    expect(timed.signal.aborted).toBe(false);
    expect(timed.timedOut()).toBe(false);
    vi.useRealTimers();
  });
});

describe('build files (update detection)', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('still fetches latest.json in a browser without AbortSignal.any, and times out there too', async () => {
    const { fetchJson } = await import('../../src/platform/build');
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('{"id":"b2","timestamp":2}', { headers: { 'content-type': 'application/json' } }),
      ),
    );
    const signal = new AbortController().signal;
    await expect(fetchJson('/_app/builds/latest.json', signal, 'no-store', {})).resolves.toEqual({
      id: 'b2',
      timestamp: 2,
    });

    vi.useFakeTimers();
    vi.stubGlobal('fetch', neverAnswers());
    const result = outcome(fetchJson('/_app/builds/latest.json', signal, 'no-store', {}));
    await vi.advanceTimersByTimeAsync(config.apiTimeoutMs);
    expect(result.error).toMatchObject({ name: 'TimeoutError' });
  });
});

/**
 * A server that sends its headers, then stalls in the body: the body fails only when the request's signal aborts,
 * as a real fetch's body does. The timeout must cover the body too, not only the wait for the headers.
 */
function stallsAfterHeaders() {
  return vi.fn(async (_url: unknown, init?: RequestInit) => {
    const signal = init?.signal ?? undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        signal?.addEventListener('abort', () => controller.error(signal.reason), { once: true });
      },
    });
    return new Response(body, { headers: { 'content-type': 'application/json' } });
  });
}

describe('a body that stalls after the headers', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('times out in the API client, as a server that never answers does', async () => {
    const request = createApiClient({ baseURL: '/api', timeoutMs: 1_000, fetch: stallsAfterHeaders() });
    const result = outcome(request('/campaigns'));
    await vi.advanceTimersByTimeAsync(1_000);
    expect(result.error).toMatchObject({ kind: 'timeout', message: TIMEOUT_MESSAGE });
  });

  it('times out when a build file is read', async () => {
    const { fetchJson } = await import('../../src/platform/build');
    vi.stubGlobal('fetch', stallsAfterHeaders());
    const result = outcome(fetchJson('/_app/builds/latest.json', new AbortController().signal, 'no-store'));
    await vi.advanceTimersByTimeAsync(config.apiTimeoutMs);
    expect(result.error).toMatchObject({ name: 'TimeoutError' });
  });
});
