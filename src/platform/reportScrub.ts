/**
 * What of an app event may leave the browser in a report. An allow-list per event type: a field not named
 * here is dropped, so a field added to an event later stays home until someone decides it may go. Paths
 * lose their query values and fragment (return-to targets, reset tokens), free text loses anything that
 * looks like an email address, a bearer token or a long secret, and page data never leaves at all.
 *
 * Errors keep the shape tests/support/effects.ts `revive` reads (`{ $error: message, ...fields }`), so
 * `npm run replay` hands the machine an Error with the fields its guards look at.
 */
import type { ReportedEvent } from '../../api/types';
import { sendableText } from '../../core/untrustedText';

type Scrub = (event: Record<string, unknown>) => Record<string, unknown>;

const MAX_TEXT = 300;

/** A path with each query value emptied and any fragment reduced to `#`: the shape survives, not the content. */
export function scrubPath(value: unknown): string {
  if (typeof value !== 'string') return '';
  const hashAt = value.indexOf('#');
  const beforeHash = hashAt === -1 ? value : value.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const path = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const query =
    queryAt === -1
      ? ''
      : `?${beforeHash
          .slice(queryAt + 1)
          .split('&')
          .filter(Boolean)
          .map((pair) => `${scrubText(pair.split('=')[0], 40)}=`)
          .join('&')}`;
  return sendableText(`${scrubText(path)}${query}${hashAt === -1 ? '' : '#'}`.slice(0, 2048));
}

/** A path for the report's route: no query string, no fragment (and bounded, as all scrubbed text is). */
export function barePath(value: string): string {
  return scrubText(value.split(/[?#]/)[0] || '/');
}

const EMAIL = /[^\s@/?#"'<>]+@[^\s@/?#"'<>]+\.[^\s@/?#"'<>]+/g;
// Query strings inside a message (`…/reset?token=…`): the same treatment as a path.
const QUERY = /\?[^\s#"']*/g;
const FRAGMENT = /#[^\s"']+/g;
// Token-like runs: a JWT's dotted base64url parts, or 24+ characters of base64url or hex.
const LONG_SECRET = /\b(?:[A-Za-z0-9_-]{8,}\.)+[A-Za-z0-9_-]{8,}\b|\b[A-Za-z0-9_-]{24,}\b/g;
const BEARER = /\b(bearer|token|password|passwd|secret|api[-_]?key)(\s*[:=]\s*|\s+)\S+/gi;

/**
 * Free text (an error message, a title) with addresses, tokens and query strings removed, bounded to `max`, and
 * sendable: no control, separator or bidi character, no half of a surrogate pair (the cut may make one), which
 * the API would refuse (core/untrustedText.ts).
 */
export function scrubText(value: unknown, max: number = MAX_TEXT): string {
  if (typeof value !== 'string') return '';
  return sendableText(
    value
      .replace(EMAIL, '[email]')
      .replace(BEARER, '$1$2[secret]')
      .replace(QUERY, '?[query]')
      .replace(FRAGMENT, '#')
      .replace(LONG_SECRET, '[secret]')
      .slice(0, max),
  );
}

const bool = (value: unknown) => (typeof value === 'boolean' ? value : undefined);
const int = (value: unknown) => (Number.isInteger(value) ? value : undefined);

function defined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

/** An AppError (machines/app/errorCatalogue.ts): status, words, fatality and the path it is about. */
function scrubAppError(value: unknown): Record<string, unknown> {
  const error = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return defined({
    statusCode: int(error.statusCode),
    statusMessage: typeof error.statusMessage === 'string' ? scrubText(error.statusMessage) : undefined,
    message: scrubText(error.message),
    fatal: bool(error.fatal),
    path: typeof error.path === 'string' ? scrubPath(error.path) : undefined,
  });
}

/** Anything an effect rejected with: the fields the machine's guards read (kind, status), and the words. */
export function scrubThrown(value: unknown): Record<string, unknown> {
  const thrown = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return defined({
    $error: scrubText(typeof value === 'string' ? value : thrown.message),
    name: typeof thrown.name === 'string' ? scrubText(thrown.name, 80) : undefined,
    kind: typeof thrown.kind === 'string' ? sendableText(thrown.kind.slice(0, 40)) : undefined,
    statusCode: int(thrown.statusCode),
    status: int(thrown.status),
    statusMessage: typeof thrown.statusMessage === 'string' ? scrubText(thrown.statusMessage) : undefined,
    fatal: bool(thrown.fatal),
  });
}

/** A loaded page: its data and title stay home (a profile's name, a draft's text); only where it came from goes. */
const pageOutput: Scrub = ({ output }) => ({
  output: defined({
    data: null,
    fromPayload: bool((output as { fromPayload?: unknown } | null)?.fromPayload),
  }),
});

/** Build manifests are public files of the build, but only the fields the machine reads are kept. */
function manifestOutput({ output }: Record<string, unknown>): Record<string, unknown> {
  const manifest = (typeof output === 'object' && output !== null ? output : {}) as Record<string, unknown>;
  return {
    output: defined({
      id: typeof manifest.id === 'string' ? sendableText(manifest.id.slice(0, 64)) : undefined,
      timestamp: typeof manifest.timestamp === 'number' ? manifest.timestamp : undefined,
      rules: typeof manifest.rules === 'object' ? manifest.rules : undefined,
      // The list of prerendered pages changes where data is read from, never which state follows.
      prerendered: Array.isArray(manifest.prerendered) ? [] : undefined,
    }),
  };
}

const nothing: Scrub = () => ({});
const thrown: Scrub = ({ error }) => ({ error: scrubThrown(error) });

/** Every event type the app actor receives from outside itself, and what of each may be reported. */
export const EVENT_ALLOW_LIST: Readonly<Record<string, Scrub>> = {
  'nav.go': ({ to, replace }) => defined({ to: scrubPath(to), replace: bool(replace) }),
  'nav.popped': ({ to }) => ({ to: scrubPath(to) }),
  'page.changed': ({ visible, online }) => defined({ visible: bool(visible), online: bool(online) }),
  'page.restored': nothing,
  'session.changed': ({ signedIn }) => defined({ signedIn: bool(signedIn) }),
  'error.raised': ({ error }) => ({ error: scrubAppError(error) }),
  'page.settled': nothing,
  'manifest.needed': nothing,
  'manifest.settled': nothing,
  'xstate.done.actor.detectCrawler': ({ output }) => defined({ output: bool(output) }),
  'xstate.done.actor.loadPage': pageOutput,
  'xstate.done.actor.retryPage': pageOutput,
  'xstate.done.actor.revalidatePage': pageOutput,
  'xstate.done.actor.fetchManifest': manifestOutput,
  'xstate.done.actor.checkForUpdate': manifestOutput,
  'xstate.done.actor.checkBuildAfterChunkError': manifestOutput,
};

const CLAIMS: ReadonlySet<unknown> = new Set(['granted', 'denied', 'unavailable']);

/** The reportable form of one event the app actor received. */
export function scrubEvent(event: {
  readonly type: string;
  readonly [field: string]: unknown;
}): ReportedEvent {
  const type = sendableText(String(event.type).slice(0, 160));
  const record = event as unknown as Record<string, unknown>;
  const scrub = EVENT_ALLOW_LIST[type];
  if (scrub) return { type, ...scrub(record) };
  // Any other actor's failure: what it threw, cut down to the fields guards read.
  if (type.startsWith('xstate.error.actor.')) return { type, ...thrown(record) };
  // Reload claims answer with one of three words; any other actor's output is not reported.
  if (type.startsWith('xstate.done.actor.')) {
    return CLAIMS.has(record.output) ? { type, output: record.output } : { type };
  }
  // Timers (`xstate.after.*`) and anything unknown: the type alone.
  return { type: scrubText(type) };
}
