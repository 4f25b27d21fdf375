/** Pure helpers of the app machine: everything here maps context to context, with no effects. */

import type { RouteRuleTable } from '../../core/routeRules';
import {
  type AppLocation,
  matchRoute,
  parseLocation,
  type RouteMatch,
  type RouteName,
  type RouteRecord,
  toFullPath,
} from '../../core/routes';
import {
  type AppError,
  notFoundError,
  statusMessageOf,
  toAppError,
  tooManyRedirectsError,
  unknownGuardError,
  unsafeRedirectError,
  validationError,
} from './errors';
import { type GuardVerdict, type RouteGuard, runGuards, UnknownGuardError } from './guards';

/** How the browser's address bar learns about a navigation. */
export type HistoryIntent = 'push' | 'replace' | 'pop';

export interface PendingNavigation {
  readonly to: AppLocation;
  readonly intent: HistoryIntent;
  /** Where the navigation first pointed, before any redirect. */
  readonly original: string;
  readonly redirects: number;
  readonly match: RouteMatch | null;
  readonly verdict: GuardVerdict | null;
  readonly failure: AppError | null;
}

/** What is on screen: the location, the route it matched and the data its page loaded. */
export interface CommittedNavigation {
  readonly location: AppLocation;
  readonly fullPath: string;
  readonly route: RouteName | null;
  readonly params: Readonly<Record<string, string>>;
  readonly data: unknown;
  /** The page's title, from its data or the route table; none when the navigation ended on an error. */
  readonly title: string | null;
  /** Increases with every settled navigation, so the view knows when to move focus and announce. */
  readonly key: number;
  /** The data came from the build (a prerendered page's payload) and the route wants it checked again. */
  readonly stale: boolean;
  /** The data is the build's (a payload, or the prerendered HTML it booted on), not the loader's. */
  readonly fromBuild: boolean;
  /**
   * How the browser got to this entry: a new one (`push`), in place of the last (`replace`), or a step
   * back or forward (`pop`, the first location included). Page arrival reads it: a step back returns to
   * where the visitor was, anything else starts at the top.
   */
  readonly via: HistoryIntent;
}

export interface NavigationLimits {
  readonly maxRedirects: number;
  readonly maxEchoedPathLength: number;
  /** Pages left behind whose data is kept, so that Back or Forward to them shows them at once. */
  readonly maxRememberedPages: number;
}

/** The page on screen at `target`'s `#fragment`, when `target` is the same page (path and query); else `null`. */
function onSamePage(current: CommittedNavigation | null, target: string): CommittedNavigation | null {
  const to = parseLocation(target);
  if (!current || !to || to.pathname !== current.location.pathname || to.search !== current.location.search)
    return null;
  return { ...current, location: to, fullPath: toFullPath(to) };
}

/** A step that only moves the `#fragment` on the page already shown: no navigation, just a new address. */
export function fragmentStep(
  current: CommittedNavigation | null,
  target: string,
): CommittedNavigation | null {
  const step = onSamePage(current, target);
  return step && step.location.hash !== current?.location.hash ? step : null;
}

/**
 * A link to a `#fragment` of the page on screen (the same fragment again included, which scrolls to it
 * again): the page stays, with nothing to load; only the address and the scroll position change.
 */
export function fragmentLink(
  current: CommittedNavigation | null,
  target: string,
): CommittedNavigation | null {
  const step = onSamePage(current, target);
  return step && step.location.hash !== '' ? step : null;
}

/** The address bar after a fragment link: a new entry for a new fragment, none for the one already there. */
export function fragmentAddress(
  current: CommittedNavigation | null,
  step: CommittedNavigation,
): AddressBarUpdate | null {
  return current?.fullPath === step.fullPath ? null : { type: 'push', to: step.fullPath };
}

export function isAppPath(target: string): boolean {
  return parseLocation(target) !== null;
}

export function beginNavigation(target: string, intent: HistoryIntent): PendingNavigation | null {
  const to = parseLocation(target);
  if (to === null) return null;
  return { to, intent, original: toFullPath(to), redirects: 0, match: null, verdict: null, failure: null };
}

export function withMatch(pending: PendingNavigation, table: readonly RouteRecord[]): PendingNavigation {
  return { ...pending, match: matchRoute(pending.to.pathname, table), verdict: null, failure: null };
}

export function withVerdict(
  pending: PendingNavigation,
  names: readonly string[],
  registry: Readonly<Record<string, RouteGuard>>,
  signedIn: boolean,
  rules: RouteRuleTable | null,
): PendingNavigation {
  try {
    const verdict = runGuards(names, registry, { to: pending.to, match: pending.match, signedIn, rules });
    return { ...pending, verdict };
  } catch (error) {
    const failure =
      error instanceof UnknownGuardError
        ? unknownGuardError(error.guard)
        : toAppError(error, toFullPath(pending.to));
    return { ...pending, failure };
  }
}

/** Global guards first, then the route's own, without repeats. */
export function guardNamesFor(pending: PendingNavigation, global: readonly string[]): string[] {
  // Stryker disable next-line OptionalChaining: Only read when the navigation did not fail, and a committed success always has a match: `commit` with `failed: false` runs after `loading`/`retrying`, reached only through `validating` where a null match is the 404 failure, and `bootPage` returns early without a match.
  return [...new Set([...global, ...(pending.match?.route.guards ?? [])])];
}

/** The redirect target, or `null` when it is not a path in this app (then the navigation fails). */
export function followRedirect(pending: PendingNavigation): PendingNavigation | null {
  // Stryker disable next-line OptionalChaining: Every caller has a verdict: `isRedirectAllowed` and the `followRedirect` action run in `guarding` after `hasGuardFailure` was false (so `withVerdict` set a verdict), and `redirectError` calls it only after its own `verdict?.type === 'redirect'` check.
  if (pending.verdict?.type !== 'redirect') return null;
  const to = parseLocation(pending.verdict.to);
  if (to === null) return null;
  // A redirect replaces the entry of a first load or a back/forward step rather than adding one.
  const intent: HistoryIntent = pending.intent === 'push' ? 'push' : 'replace';
  return {
    ...pending,
    to,
    intent,
    redirects: pending.redirects + 1,
    match: null,
    verdict: null,
    failure: null,
  };
}

/** Why a redirect is not followed: it leaves the app, or the chain is too long. */
export function redirectError(pending: PendingNavigation, limits: NavigationLimits): AppError {
  // Stryker disable next-line ConditionalExpression: `redirectError` is only called from `guarding`'s `isRedirect` branch, so the verdict is always a non-null redirect there and this check is always true.
  // Stryker disable next-line OptionalChaining: `redirectError` is only called from `guarding`'s `isRedirect` branch, so the verdict is always a non-null redirect there and this check is always true.
  if (pending.verdict?.type === 'redirect' && followRedirect(pending) === null) {
    return unsafeRedirectError(pending.verdict.to, limits.maxEchoedPathLength);
  }
  return tooManyRedirectsError(pending.original, limits.maxEchoedPathLength, limits.maxRedirects);
}

export function validateError(pending: PendingNavigation, limits: NavigationLimits): AppError | null {
  const fullPath = toFullPath(pending.to);
  if (pending.match === null) return notFoundError(fullPath, limits.maxEchoedPathLength);
  const rule = pending.match.route.validate;
  if (!rule) return null;
  let result: ReturnType<typeof rule>;
  try {
    result = rule(pending.match);
  } catch {
    result = false;
  }
  return result === true ? null : validationError(fullPath, limits.maxEchoedPathLength, result);
}

/**
 * What the address bar needs: a new entry for a push; nothing for a first load or back/forward that
 * ended where the browser already is; a replacement otherwise. Pushing the path already shown would
 * only add a duplicate entry, so that becomes a replacement too.
 */
export interface AddressBarUpdate {
  readonly type: 'push' | 'replace';
  readonly to: string;
}

export function addressBarUpdate(
  pending: PendingNavigation,
  current: CommittedNavigation | null,
): AddressBarUpdate | null {
  const to = toFullPath(pending.to);
  // Stryker disable next-line ConditionalExpression: Unreachable difference: a `pop` intent is only set by `beginNavigation` for `nav.popped`, whose `original` is `toFullPath` of the same `to`; `followRedirect` turns `pop` into `replace` when it changes `to`, so with a `pop` intent `to === pending.original` always holds.
  // Stryker disable next-line ObjectLiteral: Unreachable (not covered): with a `pop` intent `to` always equals `pending.original` (a redirect, the only thing that changes `to`, also turns the intent into `replace`), so this replacement is never returned.
  // Stryker disable next-line StringLiteral: Unreachable (not covered): with a `pop` intent `to` always equals `pending.original` (a redirect, the only thing that changes `to`, also turns the intent into `replace`), so this replacement is never returned.
  if (pending.intent === 'pop') return to === pending.original ? null : { type: 'replace', to };
  if (pending.intent === 'push' && current?.fullPath !== to) return { type: 'push', to };
  return { type: 'replace', to };
}

export function committed(
  pending: PendingNavigation,
  previous: CommittedNavigation | null,
  page: { readonly data: unknown; readonly title?: string | undefined },
  failed: boolean,
  fromPayload = false,
): CommittedNavigation {
  // Stryker disable next-line OptionalChaining: Only read when the navigation did not fail, and a committed success always has a match: `commit` with `failed: false` runs after `loading`/`retrying`, reached only through `validating` where a null match is the 404 failure, and `bootPage` returns early without a match.
  const route = failed ? null : (pending.match?.route ?? null);
  return {
    location: pending.to,
    fullPath: toFullPath(pending.to),
    route: route?.name ?? null,
    // Stryker disable next-line OptionalChaining: Only read when the navigation did not fail, and a committed success always has a match: `commit` with `failed: false` runs after `loading`/`retrying`, reached only through `validating` where a null match is the 404 failure, and `bootPage` returns early without a match.
    params: failed ? {} : (pending.match?.params ?? {}),
    data: failed ? undefined : page.data,
    title: route ? (page.title ?? route.title) : null,
    key: (previous?.key ?? 0) + 1,
    stale: !failed && fromPayload && pending.match?.route.revalidate === true,
    fromBuild: !failed && fromPayload,
    via: pending.intent,
  };
}

/** Which page a location shows: path and query; the `#fragment` is only a place on it. */
export function pageKeyOf(location: AppLocation): string {
  return `${location.pathname}${location.search}`;
}

/**
 * The pages kept after `previous` is left for `next`: `previous` joins them (when it was a page, not an error
 * page), newest last, in place of an older copy; the page about to be shown is not kept twice; the oldest go
 * beyond `limit`.
 */
export function remember(
  kept: readonly CommittedNavigation[],
  previous: CommittedNavigation | null,
  next: AppLocation,
  limit: number,
): readonly CommittedNavigation[] {
  const shown = pageKeyOf(next);
  const left = previous?.route ? pageKeyOf(previous.location) : null;
  const others = kept.filter((page) => {
    const key = pageKeyOf(page.location);
    return key !== shown && key !== left;
  });
  const all = previous?.route && left !== shown ? [...others, previous] : others;
  return all.slice(Math.max(0, all.length - limit));
}

/** The page kept for a back/forward step to `pending`'s location, if it is the same route's. */
export function rememberedFor(
  kept: readonly CommittedNavigation[],
  pending: PendingNavigation,
): CommittedNavigation | null {
  if (pending.intent !== 'pop' || !pending.match) return null;
  const key = pageKeyOf(pending.to);
  const page = kept.find((candidate) => pageKeyOf(candidate.location) === key);
  return page && page.route === pending.match.route.name ? page : null;
}

/**
 * A kept page on screen again, with the data it was last drawn with, as a new settled navigation. It is
 * checked again in the background unless its data is the build's and its route does not ask for that (the
 * landing page's payload cannot have changed): a loader's data may have.
 */
export function revisited(
  page: CommittedNavigation,
  pending: PendingNavigation,
  previous: CommittedNavigation | null,
): CommittedNavigation {
  return {
    ...page,
    location: pending.to,
    fullPath: toFullPath(pending.to),
    key: (previous?.key ?? 0) + 1,
    stale: !page.fromBuild || pending.match?.route.revalidate === true,
    via: pending.intent,
  };
}

/** A prerendered page the app starts on: where the browser is, and the data the HTML was built with. */
export interface BootPage {
  readonly fullPath: string;
  readonly data: unknown;
  /** The page's own title from that data (a campaign's name); the route table's otherwise. */
  readonly title?: string | undefined;
}

/**
 * The page on screen when the app boots from prerendered HTML, as if a navigation to it had just settled
 * (key 1: a first load, so no focus move or announcement). `null` when the path is not one a prerendered
 * page can be (no route, or its validate rule fails): the app then boots as usual.
 */
export function bootPage(
  page: BootPage | undefined,
  table: readonly RouteRecord[],
): CommittedNavigation | null {
  if (!page) return null;
  const pending = beginNavigation(page.fullPath, 'pop');
  if (!pending) return null;
  const match = matchRoute(pending.to.pathname, table);
  if (
    !match ||
    validateError(
      { ...pending, match },
      { maxRedirects: 0, maxEchoedPathLength: 0, maxRememberedPages: 0 },
    ) !== null
  )
    return null;
  return committed({ ...pending, match }, null, { data: page.data, title: page.title }, false, true);
}

/** What the document title and the first-settle rule read of the app's context. */
interface OnScreen {
  readonly appName: string;
  readonly current: CommittedNavigation | null;
}

export function errorDocumentTitle(error: AppError, appName: string): string {
  return `${error.statusCode} - ${statusMessageOf(error)} | ${appName}`;
}

/** The document title for what is on screen: the error page's, the page's, or just the app's name. */
export function documentTitleOf(context: OnScreen, shownError: AppError | null): string {
  if (shownError) return errorDocumentTitle(shownError, context.appName);
  const title = context.current?.title;
  return title ? `${title} | ${context.appName}` : context.appName;
}

/** The first settled navigation keeps the browser's own focus and scroll, as a document load does. */
export function isFirstSettle(context: Pick<OnScreen, 'current'>): boolean {
  // Stryker disable next-line OptionalChaining: the one caller, the navigation region's `isLaterPage` guard, asks only after `context.current?.route != null`, so a page is on screen whenever it runs. The optional chaining keeps the helper safe for a caller that asks before the first page.
  return (context.current?.key ?? 0) <= 1;
}

/**
 * How a page (or an error page) came on screen, which decides where the window scrolls and where focus goes
 * (src/platform/arrival.ts): the document's first page keeps what the browser did (a reload's position, a
 * `#fragment` target, given focus); a step back or forward returns to where the visitor was; anything else is
 * a new page, which starts at the top, or at its `#fragment`, and is announced.
 */
export type ArrivalKind = 'first' | 'new' | 'return';

export interface Arrival {
  /** The document title, which the live region announces on a page after the first. */
  readonly title: string;
  readonly kind: ArrivalKind;
  /** The location's `#fragment` (with its `#`), or `''`. */
  readonly hash: string;
}

export function arrivalOf(context: Pick<OnScreen, 'current'>, title: string): Arrival {
  const current = context.current;
  const kind: ArrivalKind = isFirstSettle(context) ? 'first' : current?.via === 'pop' ? 'return' : 'new';
  return { title, kind, hash: current?.location.hash ?? '' };
}

/** A move to a `#fragment` of the page on screen: to its target, or back to where a step back/forward was. */
export interface FragmentArrival {
  readonly kind: 'new' | 'return';
  readonly hash: string;
}
