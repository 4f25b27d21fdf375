import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, requestUrl, toApiError, UNREADABLE_MESSAGE } from '../src/platform/api';

/** A client whose fetch answers `response` and records what it was asked. */
function clientAnswering(response: () => Response) {
  const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => response());
  const send = createApiClient({ baseURL: '/api', timeoutMs: 1_000, fetch });
  return { send, fetch };
}

function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    ...init,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

describe('API requests', () => {
  it('joins the base URL and the path with one slash, and adds the query', () => {
    expect(requestUrl('/api', '/campaigns')).toBe('/api/campaigns');
    expect(requestUrl('/api/', 'campaigns')).toBe('/api/campaigns');
    expect(requestUrl('https://api.example/v1//', '//me', { featured: '1', q: 'a b&c' })).toBe(
      'https://api.example/v1/me?featured=1&q=a+b%26c',
    );
    expect(requestUrl('/api', '/campaigns', {})).toBe('/api/campaigns');
  });

  it('asks for JSON with the same-origin cookies, and reads the JSON answer', async () => {
    const { send, fetch } = clientAnswering(() => json({ campaigns: [] }));
    const signal = new AbortController().signal;
    await expect(send('/campaigns', { query: { featured: '1' }, signal })).resolves.toEqual({
      campaigns: [],
    });
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/campaigns?featured=1');
    expect(init).toMatchObject({
      method: 'GET',
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    });
    expect(init?.body).toBeUndefined();
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('sends a body as JSON, saying so', async () => {
    const { send, fetch } = clientAnswering(() => new Response(null, { status: 204 }));
    await expect(send('/me', { method: 'PATCH', body: { displayName: 'Ada' } })).resolves.toBeUndefined();
    const init = fetch.mock.calls[0]?.[1];
    expect(init).toMatchObject({
      method: 'PATCH',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: '{"displayName":"Ada"}',
    });
  });

  it('keeps the status and the server message of an error answer', async () => {
    const { send } = clientAnswering(() =>
      json({ message: 'Campaign 9 does not exist.' }, { status: 404, statusText: 'Not Found' }),
    );
    const error = await send('/campaigns/9').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 404, message: 'Campaign 9 does not exist.', kind: 'http' });
  });

  it('says so when the server answered an error without a message', async () => {
    const html = clientAnswering(() => new Response('<html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(html.send('/campaigns')).rejects.toMatchObject({
      statusCode: 502,
      message: 'The server answered 502 Bad Gateway',
    });
    const broken = clientAnswering(
      () => new Response('{not json', { status: 500, headers: { 'content-type': 'application/json' } }),
    );
    await expect(broken.send('/campaigns')).rejects.toMatchObject({
      statusCode: 500,
      message: 'The server answered 500',
    });
  });

  it('fails clearly on a success whose JSON does not parse, and gives text that is not JSON as text', async () => {
    const broken = clientAnswering(
      () => new Response('{"campaigns": [', { headers: { 'content-type': 'application/json' } }),
    );
    await expect(broken.send('/campaigns')).rejects.toMatchObject({
      statusCode: 502,
      kind: 'http',
      message: UNREADABLE_MESSAGE,
    });
    const text = clientAnswering(() => new Response('ok', { headers: { 'content-type': 'text/plain' } }));
    await expect(text.send('/health')).resolves.toBe('ok');
  });

  // The timeout itself is tested with a fetch that never answers, in tests/api.timeout.test.ts.
  it('words an unreachable server for people', async () => {
    const { send } = clientAnswering(() => {
      throw new TypeError('Failed to fetch');
    });
    await expect(send('/campaigns')).rejects.toMatchObject({
      statusCode: 503,
      kind: 'network',
      message: 'The server could not be reached. Check your connection and try again.',
    });
  });

  it('knows a cancelled request from a failed one', () => {
    const controller = new AbortController();
    controller.abort();
    expect(toApiError(new Error('aborted'), controller.signal).kind).toBe('aborted');
    expect(toApiError(new Error('aborted')).kind).toBe('network');
  });
});
