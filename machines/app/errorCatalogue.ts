/**
 * The error model of the app, after the one the spec comes from: a status code (500 when none or an
 * impossible one is given), an optional status message, a message, and whether the error is fatal.
 */

export interface AppError {
  readonly statusCode: number;
  /** When absent, the view derives it from the status code (`statusMessageOf`). */
  readonly statusMessage?: string;
  readonly message: string;
  readonly fatal: boolean;
  /** The path the error is about, when there is one. */
  readonly path?: string;
}

export interface AppErrorInput {
  readonly statusCode?: number;
  readonly statusMessage?: string;
  readonly message?: string;
  readonly fatal?: boolean;
  readonly path?: string;
}

export const DEFAULT_STATUS = 500;

function sanitizeStatus(statusCode: number | undefined): number {
  // Stryker disable next-line ConditionalExpression: Same replacement at two lines, one reason for both: on line 27 `Number.isInteger(undefined)` is false, so an absent status still falls back to 500 through the next condition; on line 128 `createAppError` receives `statusCode: undefined`, which `sanitizeStatus` turns into that same 500.
  return statusCode !== undefined && Number.isInteger(statusCode) && statusCode >= 100 && statusCode <= 999
    ? statusCode
    : DEFAULT_STATUS;
}

export function createAppError(input: AppErrorInput | string): AppError {
  if (typeof input === 'string') return { statusCode: DEFAULT_STATUS, message: input, fatal: false };
  const error: AppError = {
    statusCode: sanitizeStatus(input.statusCode),
    message: input.message ?? input.statusMessage ?? '',
    fatal: input.fatal ?? false,
    ...(input.statusMessage !== undefined ? { statusMessage: input.statusMessage } : {}),
    ...(input.path !== undefined ? { path: input.path } : {}),
  };
  return error;
}

/** Status line of the error page: the given one, or the standard phrase for 404 and for everything else. */
export function statusMessageOf(error: AppError): string {
  return error.statusMessage ?? (error.statusCode === 404 ? 'Page Not Found' : 'Internal Server Error');
}

/** Shortens a path echoed into a message, so a hostile URL cannot flood the page. */
export function echoPath(path: string, maxLength: number): string {
  const chars = Array.from(path);
  return chars.length <= maxLength ? path : `${chars.slice(0, Math.max(1, maxLength - 1)).join('')}…`;
}

/** A path that matches no route: the spec's non-fatal 404, lower-case "not found". */
export function notFoundError(fullPath: string, maxPathLength: number): AppError {
  return createAppError({
    statusCode: 404,
    fatal: false,
    message: `Page not found: ${echoPath(fullPath, maxPathLength)}`,
    path: fullPath,
  });
}

/** A route whose validate rule failed: the spec's fatal 404, "Page Not Found" in title case. */
export function validationError(
  fullPath: string,
  maxPathLength: number,
  result: { readonly statusCode?: number; readonly statusMessage?: string } | false,
): AppError {
  // Stryker disable next-line ConditionalExpression: With `result` false, `custom` is `false` instead of `{}`, and `false.statusMessage` / `false.statusCode` read undefined from Boolean.prototype exactly as from `{}`, so message, status and statusMessage are the same.
  // Stryker disable next-line BooleanLiteral: `result` is never `true` (its type excludes it, and the only caller, `validateError`, calls this only when the validate rule did not answer true), so the test is always false and `custom` is `false`, whose properties read undefined exactly as those of `{}`.
  const custom = result === false ? {} : result;
  const message = custom.statusMessage ?? `Page Not Found: ${echoPath(fullPath, maxPathLength)}`;
  return createAppError({
    statusCode: custom.statusCode ?? 404,
    fatal: true,
    message,
    ...(custom.statusMessage !== undefined ? { statusMessage: custom.statusMessage } : {}),
    path: fullPath,
  });
}

/** A route names a guard nobody registered; the message is the spec's, which calls guards "middleware". */
export function unknownGuardError(name: string): AppError {
  return createAppError({ statusCode: 500, fatal: true, message: `Unknown route middleware: '${name}'.` });
}

export function tooManyRedirectsError(fullPath: string, maxPathLength: number, limit: number): AppError {
  return createAppError({
    statusCode: 500,
    fatal: true,
    message: `Navigation to ${echoPath(fullPath, maxPathLength)} was redirected more than ${limit} times.`,
    path: fullPath,
  });
}

/** A guard redirected to something that is not a path of this app: refused rather than followed. */
export function unsafeRedirectError(target: string, maxPathLength: number): AppError {
  return createAppError({
    statusCode: 500,
    fatal: true,
    message: `A guard tried to redirect to ${echoPath(target, maxPathLength)}, which is not a page of this app.`,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Turns anything a page, its data or a guard threw into an AppError. An object that carries a
 * `statusCode` (or `status`) keeps it, so "this campaign does not exist" stays a 404.
 */
export function toAppError(thrown: unknown, path?: string): AppError {
  if (typeof thrown === 'string') return createAppError({ message: thrown, ...(path ? { path } : {}) });
  if (!isRecord(thrown))
    return createAppError({ message: 'Something went wrong.', ...(path ? { path } : {}) });
  const statusCode =
    typeof thrown.statusCode === 'number'
      ? thrown.statusCode
      : // Stryker disable next-line ConditionalExpression: A missing or non-number `status` then becomes the status code passed on, and `createAppError` repairs anything that is not an integer from 100 to 999 to 500, the same 500 an absent status gives.
        typeof thrown.status === 'number'
        ? thrown.status
        : undefined;
  const message =
    typeof thrown.message === 'string' && thrown.message !== '' ? thrown.message : 'Something went wrong.';
  return createAppError({
    message,
    fatal: thrown.fatal === true,
    ...(statusCode !== undefined ? { statusCode } : {}),
    ...(typeof thrown.statusMessage === 'string' ? { statusMessage: thrown.statusMessage } : {}),
    ...(path ? { path } : {}),
  });
}
