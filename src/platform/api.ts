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
    /** The request field the server's message is about, when its `fields` name one (a form shows it there). */
    readonly field?: string,
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

/** What the user reads when a successful answer is not the JSON it says it is. */
export const UNREADABLE_MESSAGE = 'The server sent an answer the app could not read. Please try again.';

/** An answer that is not a success, worded with the server's own message when its body has one. */
export function httpError(status: number, statusText: string, body: unknown): ApiError {
  const message = messageFromBody(body) ?? `The server answered ${status} ${statusText}`.trim();
  // A form's refusal names its field in `fields` (field → message): the first named is the one shown.
  const fields =
    typeof body === 'object' && body !== null && 'fields' in body && typeof body.fields === 'object'
      ? body.fields
      : null;
  const field = fields ? Object.keys(fields)[0] : undefined;
  return new ApiError(status, message, 'http', field);
}

export function toApiError(error: unknown, signal?: AbortSignal, timedOut = false): ApiError {
  if (error instanceof ApiError) return error;
  if (timedOut) return new ApiError(504, TIMEOUT_MESSAGE, 'timeout');
  if (signal?.aborted) return new ApiError(0, 'The request was cancelled.', 'aborted');
  return new ApiError(
    503,
    'The server could not be reached. Check your connection and try again.',
    'network',
  );
}

export interface RequestOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly body?: Record<string, unknown>;
  readonly query?: Record<string, string>;
  /** Aborted when the actor that made the request stops. */
  readonly signal?: AbortSignal;
}

export interface ApiClientOptions {
  readonly baseURL: string;
  readonly timeoutMs: number;
  /** The browser's by default (looked up at each call); tests pass one that never answers. */
  readonly fetch?: typeof globalThis.fetch;
  /** `AbortSignal` by default; tests pass `{}` for browsers without `AbortSignal.any`. */
  readonly signals?: SignalStatics;
}

/** `baseURL` and `path` joined with exactly one slash, then the query. */
export function requestUrl(baseURL: string, path: string, query?: Record<string, string>): string {
  const url = `${baseURL.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const search = query ? new URLSearchParams(query).toString() : '';
  return search ? `${url}?${search}` : url;
}

/**
 * The body of an answer: parsed JSON when it says it is JSON, `undefined` when it is empty, else its text.
 * A success whose JSON does not parse is an error (a page must not render a string as its data); an error
 * answer's unreadable body only loses its message.
 */
async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  // Stryker disable next-line StringLiteral: The fallback for an answer without a content-type header only has to fail the JSON test `/[/+]json\b/i`; 'Stryker was here!' fails it as '' does, so the body is returned as text either way. Equivalent for every input.
  if (!/[/+]json\b/i.test(response.headers.get('content-type') ?? '')) return text;
  try {
    return JSON.parse(text);
  } catch {
    if (response.ok) throw new ApiError(502, UNREADABLE_MESSAGE, 'http');
    return text;
  }
}

/**
 * An HTTP client on the platform's `fetch`: JSON bodies both ways, the server's error message, our error
 * wording and a timeout (our own signal combined with the caller's). No retries: a user-visible failure is
 * better than a doubled write.
 */
export function createApiClient(options: ApiClientOptions) {
  const fetchImpl: typeof globalThis.fetch =
    options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return async function send<T>(path: string, request: RequestOptions = {}): Promise<T> {
    const timed = withTimeout(request.signal, options.timeoutMs, options.signals);
    try {
      const response = await fetchImpl(requestUrl(options.baseURL, path, request.query), {
        method: request.method ?? 'GET',
        credentials: 'same-origin',
        headers: request.body
          ? { accept: 'application/json', 'content-type': 'application/json' }
          : { accept: 'application/json' },
        ...(request.body ? { body: JSON.stringify(request.body) } : {}),
        signal: timed.signal,
      });
      const body = await readBody(response);
      if (!response.ok) throw httpError(response.status, response.statusText, body);
      return body as T;
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
