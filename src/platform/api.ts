import { FetchError, ofetch } from 'ofetch';
import { config } from '../config';
import { type SignalStatics, withTimeout } from './signals';

/**
 * A failed API call, worded for the person using the app. `statusCode` is the HTTP status, or 0 when
 * the server could not be reached, and travels into the error page when a page's data fails.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly kind: 'http' | 'network' | 'timeout' | 'aborted',
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

function messageFromBody(data: unknown): string | null {
  if (typeof data === 'object' && data !== null && 'message' in data && typeof data.message === 'string') {
    return data.message;
  }
  return null;
}

/** What the user reads when a request outlived `config.apiTimeoutMs`. */
export const TIMEOUT_MESSAGE = 'The server took too long to answer. Please try again.';

export function toApiError(error: unknown, signal?: AbortSignal, timedOut = false): ApiError {
  if (error instanceof ApiError) return error;
  if (timedOut) return new ApiError(504, TIMEOUT_MESSAGE, 'timeout');
  if (signal?.aborted) return new ApiError(0, 'The request was cancelled.', 'aborted');
  if (error instanceof FetchError) {
    if (error.statusCode) {
      const message =
        messageFromBody(error.data) ??
        `The server answered ${error.statusCode} ${error.statusMessage ?? ''}`.trim();
      return new ApiError(error.statusCode, message, 'http');
    }
  }
  return new ApiError(
    503,
    'The server could not be reached. Check your connection and try again.',
    'network',
  );
}

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly body?: Record<string, unknown>;
  readonly query?: Record<string, string>;
  /** Aborted when the actor that made the request stops. */
  readonly signal?: AbortSignal;
}

export interface ApiClientOptions {
  readonly baseURL: string;
  readonly timeoutMs: number;
  /** The browser's by default; tests pass one that never answers. */
  readonly fetch?: typeof globalThis.fetch;
  /** `AbortSignal` by default; tests pass `{}` for browsers without `AbortSignal.any`. */
  readonly signals?: SignalStatics;
}

/**
 * An HTTP client. ofetch gives JSON bodies both ways, base-URL joining and parsed error bodies in about 3 kB;
 * we add the error wording and the timeout. ofetch's own `timeout` option is skipped whenever a signal is
 * passed (and every caller passes one), so the timeout is our own signal combined with the caller's. No
 * retries: a user-visible failure is better than a doubled write.
 */
export function createApiClient(options: ApiClientOptions) {
  const client = ofetch.create(
    {
      baseURL: options.baseURL,
      retry: 0,
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
    },
    options.fetch ? { fetch: options.fetch } : {},
  );
  return async function send<T>(path: string, request: RequestOptions = {}): Promise<T> {
    const timed = withTimeout(request.signal, options.timeoutMs, options.signals);
    try {
      return await client<T>(path, {
        method: request.method ?? 'GET',
        ...(request.body ? { body: request.body } : {}),
        ...(request.query ? { query: request.query } : {}),
        signal: timed.signal,
      });
    } catch (error) {
      throw toApiError(error, request.signal, timed.timedOut());
    } finally {
      timed.dispose();
    }
  };
}

const client = createApiClient({ baseURL: config.apiBaseUrl, timeoutMs: config.apiTimeoutMs });

export function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return client<T>(path, options);
}
