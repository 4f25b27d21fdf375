// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadPayload, preloadPayloads, readInlinePayload } from '../src/platform/payload';

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
  });

  it('preloads the prerendered pages the links on the page open, once each, not the page itself', async () => {
    window.history.replaceState(null, '', '/');
    document.body.innerHTML = [
      '<a href="/">Home</a>',
      '<a href="/campaign/3">Three</a>',
      '<a href="/campaign/3#about">Three again</a>',
      '<a href="/home">Not prerendered</a>',
      '<a href="https://example.com/campaign/4">Elsewhere</a>',
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
    block(JSON.stringify({ buildId: 'dev', path: '/campaign/1' }), 'text/plain');
    expect(readInlinePayload()).toBeNull();
  });
});
