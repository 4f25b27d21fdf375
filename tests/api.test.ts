import { FetchError } from 'ofetch';
import { describe, expect, it } from 'vitest';
import { ApiError, toApiError } from '../src/platform/api';

function fetchError(init: { statusCode?: number; data?: unknown; cause?: unknown }): FetchError {
  const error = new FetchError('request failed', init.cause ? { cause: init.cause } : undefined);
  Object.assign(error, { statusCode: init.statusCode, data: init.data });
  return error;
}

describe('API errors', () => {
  it('keeps the status and the server message', () => {
    const error = toApiError(
      fetchError({ statusCode: 404, data: { message: 'Campaign 9 does not exist.' } }),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ statusCode: 404, message: 'Campaign 9 does not exist.', kind: 'http' });
  });

  it('says so when the server answered without a message', () => {
    expect(toApiError(fetchError({ statusCode: 502, data: '<html>' })).message).toBe(
      'The server answered 502',
    );
  });

  // The timeout itself is tested with a fetch that never answers, in tests/api.timeout.test.ts.
  it('words an unreachable server for people', () => {
    expect(toApiError(new TypeError('Failed to fetch'))).toMatchObject({
      statusCode: 503,
      kind: 'network',
      message: 'The server could not be reached. Check your connection and try again.',
    });
  });

  it('knows a cancelled request from a failed one', () => {
    const controller = new AbortController();
    controller.abort();
    expect(toApiError(new Error('aborted'), controller.signal).kind).toBe('aborted');
  });
});
