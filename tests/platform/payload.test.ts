// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadPayload, preloadPayloads, readInlinePayload } from '../../src/platform/payload';

function json(body: unknown, init: { status?: number; type?: string } = {}): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { 'content-type': init.type ?? 'application/json' },
  });
}

describe('payloads in the browser', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('reads this build’s payload beside the page, and shares one request between a preload and a navigation', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => json({ buildId: 'b1', path: '/campaign/1', data: { id: 1 } }));
    const first = loadPayload('/campaign/1', 'b1');
    const second = loadPayload('/campaign/1', 'b1');
    expect(await first).toEqual({ buildId: 'b1', path: '/campaign/1', data: { id: 1 } });
    expect(await second).toEqual(await first);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(String(fetch.mock.calls[0]?.[0])).toBe('/campaign/1/_payload.json?b1');
  });

  it('answers null, logs, and asks again next time for another build’s payload, a 404 or a body that is not JSON', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const [index, response] of [
      json({ buildId: 'b0', path: '/campaign/2', data: {} }),
      json({ message: 'Not found' }, { status: 404 }),
      json('<!doctype html><p>Wi-Fi</p>', { type: 'text/html' }),
      json('{"buildId": "b1", "pa', { type: 'application/json' }),
    ].entries()) {
      const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(response);
      expect(await loadPayload('/campaign/2', 'b1')).toBeNull();
      expect(fetch).toHaveBeenCalledTimes(index + 1);
    }
    expect(warn).toHaveBeenCalledTimes(4);
    expect(warn.mock.calls[0]?.[0]).toBe('[campaign-web] Cannot load payload');
    // Which file, and why: enough to tell a mixed-up cache from a missing file in a bug report.
    expect(warn.mock.calls.slice(0, 3).map((call) => call.slice(1))).toEqual([
      ['/campaign/2/_payload.json?b1', 'not a payload of build b1 for /campaign/2'],
      ['/campaign/2/_payload.json?b1', 'answered 404'],
      ['/campaign/2/_payload.json?b1', 'not JSON'],
    ]);
    expect(warn.mock.calls[3]?.[2]).toEqual(expect.any(String));
  });

  it('looks for payloads under the app’s base path', async () => {
    vi.stubEnv('BASE_URL', '/app/');
    try {
      vi.resetModules();
      const fresh = await import('../../src/platform/payload');
      const fetch = vi
        .spyOn(globalThis, 'fetch')
        .mockImplementation(async () => json({ buildId: 'b1', path: '/campaign/9', data: {} }));
      await fresh.loadPayload('/campaign/9', 'b1');
      expect(String(fetch.mock.calls[0]?.[0])).toBe('/app/campaign/9/_payload.json?b1');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('asks for the file with the HTTP cache allowed, same-origin credentials and a time limit', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => json({ buildId: 'b1', path: '/campaign/5', data: {} }));
    await loadPayload('/campaign/5', 'b1');
    const init = fetch.mock.calls[0]?.[1];
    expect(init).toMatchObject({
      cache: 'force-cache',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('gives up on a payload that does not come within 10 s, and the page asks its loader', async () => {
    // happy-dom's AbortSignal.timeout runs on a timer of its own, out of reach of fake timers: the test holds it.
    const limit = new AbortController();
    const timeout = vi.spyOn(AbortSignal, 'timeout').mockReturnValue(limit.signal);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(globalThis, 'fetch').mockImplementation(
      (_url, init) =>
        new Promise((_, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    );
    let result: unknown = 'pending';
    const loading = loadPayload('/campaign/6', 'b1').then((payload) => {
      result = payload;
    });
    expect(timeout).toHaveBeenCalledWith(10_000);
    await Promise.resolve();
    expect(result).toBe('pending');
    limit.abort(new DOMException('signal timed out', 'TimeoutError'));
    await loading;
    expect(result).toBeNull();
  });

  it('logs what a failure that is no Error said', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce('offline');
    expect(await loadPayload('/campaign/7', 'b1')).toBeNull();
    expect(warn).toHaveBeenCalledWith(
      '[campaign-web] Cannot load payload',
      '/campaign/7/_payload.json?b1',
      'offline',
    );
  });

  it('keeps a payload it has, for every later navigation to the page', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => json({ buildId: 'b1', path: '/campaign/8', data: { id: 8 } }));
    expect(await loadPayload('/campaign/8', 'b1')).toMatchObject({ data: { id: 8 } });
    expect(await loadPayload('/campaign/8', 'b1')).toMatchObject({ data: { id: 8 } });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('preloads the prerendered pages the links on the page open, once each, not the page itself', async () => {
    window.history.replaceState(null, '', '/');
    document.body.innerHTML = [
      '<a href="/">Home</a>',
      '<a href="/campaign/3">Three</a>',
      '<a href="/campaign/3#about">Three again</a>',
      '<a href="/home">Not prerendered</a>',
      '<a href="https://example.com/campaign/4">Elsewhere</a>',
      // Starts with a slash, yet another host's.
      '<a href="//example.com/campaign/4">Elsewhere too</a>',
    ].join('');
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => json({ buildId: 'b9', path: '/campaign/3', data: {} }));
    preloadPayloads(['/', '/campaign/3', '/campaign/4'], 'b9');
    await Promise.resolve();
    expect(fetch.mock.calls.map((call) => String(call[0]))).toEqual(['/campaign/3/_payload.json?b9']);
  });

  it('trusts an inline payload only when it is this build’s and this page’s', () => {
    window.history.replaceState(null, '', '/campaign/1');
    const block = (text: string, type = 'application/json') => {
      document.body.innerHTML = `<script type="${type}" id="__CAMPAIGN_PAYLOAD__">${text}</script>`;
    };
    block(JSON.stringify({ buildId: 'dev', path: '/campaign/1', data: { id: 1 } }));
    expect(readInlinePayload()).toEqual({ buildId: 'dev', path: '/campaign/1', data: { id: 1 } });
    block(JSON.stringify({ buildId: 'dev', path: '/campaign/2', data: {} }));
    expect(readInlinePayload()).toBeNull();
    block(JSON.stringify({ buildId: 'other', path: '/campaign/1', data: {} }));
    expect(readInlinePayload()).toBeNull();
    block('{not json');
    expect(readInlinePayload()).toBeNull();
    document.body.innerHTML = '';
    expect(readInlinePayload()).toBeNull();
    block(JSON.stringify({ buildId: 'dev', path: '/campaign/1' }), 'text/plain');
    expect(readInlinePayload()).toBeNull();
  });
});
