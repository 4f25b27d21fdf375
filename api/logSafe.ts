/**
 * What of a failure may reach a log line. A database driver's error carries the failed query and its
 * parameters (PGlite's `query` and `params`; PostgreSQL's `detail` and `where` quote the offending value): a
 * report's whole text, an email, a password hash. A log keeps the error's kind, words and place in the code
 * only, each bounded, with control characters shown as escapes, so a log line stays a few kB and holds no
 * request data. The production server's logger applies the same to every `err` it logs (server/app.ts).
 */
import { visibleText } from '../core/untrustedText.ts';

/**
 * The limits whose refusals are `rate-limited` events (a refused sign-in is `sign-in.refused`): the per-address
 * flood limits on /api and on new image variants (server/plugins/rateLimit.ts), reports and vitals samples per
 * address (./routes/reports.ts), and an address's spent guesses of the reports' and the metrics' tokens.
 */
export type LimitName = 'api' | 'image-variants' | 'reports' | 'vitals' | 'reports-token' | 'metrics-token';

/**
 * One security event, one per refusal: who (the client address as limits count it), what, and which account as
 * a digest of its email, never the email, a password or a token.
 */
export type SecurityEvent = { address: string } & (
  | {
      event: 'sign-in.failed' | 'sign-in.refused' | 'sign-up.taken' | 'account.deleted';
      /** api/signInLimits.ts accountKey: a digest of the NFKC lower-cased email. */
      account: string;
    }
  | {
      event: 'origin.refused';
      /** The origin a refused write came from, bounded and escaped. */
      origin?: string;
    }
  | { event: 'rate-limited'; limit: LimitName }
  /** A sign-up refused by the per-address limit (api/signInLimits.ts SignUpLimits). */
  | { event: 'sign-up.refused' }
  /** A missing or wrong operator token (REPORTS_TOKEN, METRICS_TOKEN): which one, never what was sent. */
  | { event: 'token.refused'; token: 'reports' | 'metrics' }
);

/** Where the API writes what went wrong: console, or the production server's structured log. */
export type ApiLog = Pick<Console, 'error'> & {
  warn?: Console['warn'];
  /** One line per security event; by default a `security` JSON line on the console's warn. */
  security?: (event: SecurityEvent) => void;
};

/** The security-event writer of a log: its own, or one JSON line on warn (or error). */
export function securityLine(log: ApiLog): (event: SecurityEvent) => void {
  return log.security ?? ((event) => (log.warn ?? log.error)(JSON.stringify({ security: event })));
}

const MAX_MESSAGE = 300;
const MAX_STACK = 2_000;
const MAX_PATH = 200;

/** The loggable form of anything thrown: `{ type, message, code?, stack? }`, nothing else. */
export function loggableError(error: unknown): {
  type: string;
  message: string;
  code?: string;
  stack?: string;
} {
  const record = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const type =
    typeof error !== 'object' || error === null
      ? error === null
        ? 'null'
        : typeof error
      : typeof record.name === 'string'
        ? record.name
        : (error.constructor?.name ?? 'Object');
  const message =
    typeof record.message === 'string' ? record.message : typeof error === 'string' ? error : '';
  const code =
    typeof record.code === 'string' || typeof record.code === 'number' ? String(record.code) : undefined;
  // The stack's frames only: its first line repeats the message.
  const frames =
    typeof record.stack === 'string' ? record.stack.split('\n').filter((line) => /^\s+at /.test(line)) : [];
  return {
    type: bounded(type, 80),
    message: bounded(message, MAX_MESSAGE),
    ...(code !== undefined ? { code: bounded(code, 40) } : {}),
    ...(frames.length > 0
      ? {
          stack: frames
            .map((frame) => visibleText(frame))
            .join('\n')
            .slice(0, MAX_STACK),
        }
      : {}),
  };
}

/** An Error made of the loggable fields alone, for loggers that print an Error (console, pino's `err`). */
export function loggable(error: unknown): Error {
  const safe = loggableError(error);
  const copy = new Error(safe.message);
  copy.name = safe.type;
  copy.stack = `${safe.type}: ${safe.message}${safe.stack ? `\n${safe.stack}` : ''}`;
  if (safe.code !== undefined) Object.assign(copy, { code: safe.code });
  return copy;
}

/** A request's path for a log line: no query string (it may carry tokens), bounded, escapes visible. */
export function loggablePath(url: string | undefined): string {
  return bounded((url ?? '').split('?')[0] ?? '', MAX_PATH);
}

function bounded(text: string, max: number): string {
  const visible = visibleText(text);
  return visible.length > max ? `${visible.slice(0, max)}…` : visible;
}
