import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  createApiClient,
  requestUrl,
  toApiError,
  UNREADABLE_MESSAGE,
} from '../../src/platform/api';

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
    expect(requestUrl('/api', 'campaigns/9/')).toBe('/api/campaigns/9/');
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

  // The timeout itself is tested with a fetch that never answers, in tests/platform/api.timeout.test.ts.
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
    expect(toApiError(new Error('aborted'), controller.signal)).toMatchObject({
      kind: 'aborted',
      statusCode: 0,
      message: 'The request was cancelled.',
    });
    expect(toApiError(new Error('aborted')).kind).toBe('network');
  });

  it('is an Error named ApiError, so logs and reports tell it apart', async () => {
    const { send } = clientAnswering(() =>
      json({ message: 'No.' }, { status: 403, statusText: 'Forbidden' }),
    );
    const error = await send('/me').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'ApiError' });
  });

  it('uses only a message the server wrote as text, and says the status otherwise', async () => {
    for (const body of [{ message: 42 }, null, ['message'], { error: 'no message field' }]) {
      const { send } = clientAnswering(() => json(body, { status: 422, statusText: 'Unprocessable Entity' }));
      await expect(send('/campaigns')).rejects.toMatchObject({
        statusCode: 422,
        kind: 'http',
        message: 'The server answered 422 Unprocessable Entity',
      });
    }
  });

  it('reads every JSON media type as JSON, whatever its case, and nothing else', async () => {
    const answering = (type: string, body: string, status = 200) =>
      clientAnswering(() => new Response(body, { status, headers: { 'content-type': type } })).send('/x');
    await expect(
      answering('application/problem+json', '{"message":"Too many requests."}', 429),
    ).rejects.toMatchObject({ message: 'Too many requests.' });
    await expect(answering('APPLICATION/JSON', '{"ok":true}')).resolves.toEqual({ ok: true });
    await expect(answering('application/json;charset=utf-8', '[1]')).resolves.toEqual([1]);
    await expect(answering('application/jsonlines', '{"ok":true}')).resolves.toBe('{"ok":true}');
    await expect(answering('application/x-ndjson', '{"ok":true}')).resolves.toBe('{"ok":true}');
  });

  it('leaves no timer behind once the answer is in, nor when it failed', async () => {
    vi.useFakeTimers();
    try {
      await clientAnswering(() => json({})).send('/campaigns');
      expect(vi.getTimerCount()).toBe(0);
      await clientAnswering(() => json({}, { status: 500 }))
        .send('/campaigns')
        .catch(() => {});
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancels the request when the caller’s signal aborts', async () => {
    const { send, fetch } = clientAnswering(() => json({}));
    const caller = new AbortController();
    await send('/campaigns', { signal: caller.signal });
    const sent = fetch.mock.calls[0]?.[1]?.signal;
    expect(sent?.aborted).toBe(false);
    caller.abort();
    expect(sent?.aborted).toBe(true);
  });
});
