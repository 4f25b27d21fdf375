import { FetchError, ofetch } from 'ofetch';
import { config } from '../config';

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

export function toApiError(error: unknown, signal?: AbortSignal): ApiError {
  if (error instanceof ApiError) return error;
  if (signal?.aborted) return new ApiError(0, 'The request was cancelled.', 'aborted');
  if (error instanceof FetchError) {
    if (error.statusCode) {
      const message =
        messageFromBody(error.data) ??
        `The server answered ${error.statusCode} ${error.statusMessage ?? ''}`.trim();
      return new ApiError(error.statusCode, message, 'http');
    }
    const cause = error.cause;
    if (cause instanceof DOMException && cause.name === 'TimeoutError') {
      return new ApiError(504, 'The server took too long to answer. Please try again.', 'timeout');
    }
  }
  return new ApiError(
    503,
    'The server could not be reached. Check your connection and try again.',
    'network',
  );
}

/**
 * The one HTTP client of the app. ofetch gives JSON bodies both ways, base-URL joining, a timeout and
 * parsed error bodies in about 3 kB; we add only the error wording. No retries: a user-visible failure
 * is better than a doubled write.
 */
const client = ofetch.create({
  baseURL: config.apiBaseUrl,
  timeout: config.apiTimeoutMs,
  retry: 0,
  credentials: 'same-origin',
  headers: { accept: 'application/json' },
});

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly body?: Record<string, unknown>;
  readonly query?: Record<string, string>;
  /** Aborted when the actor that made the request stops. */
  readonly signal?: AbortSignal;
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await client<T>(path, {
      method: options.method ?? 'GET',
      ...(options.body ? { body: options.body } : {}),
      ...(options.query ? { query: options.query } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    throw toApiError(error, options.signal);
  }
}
