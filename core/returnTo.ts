import { matchRoute, parseLocation, type RouteName, toFullPath } from './routes';

/** Where a signed-in user goes when there is no (safe) place to return to. */
export const DEFAULT_RETURN_TO = '/home';

/** The query parameter that carries the return-to path to the sign-in page. */
export const RETURN_TO_PARAM = 'redirect';

/** Routes that make no sense to return to after signing in: they would only bounce again. */
const NEVER_RETURN_TO: ReadonlySet<RouteName> = new Set(['login']);

/**
 * Accepts only a path inside this app, never one that a browser would read as another host. The value is
 * normalised first (dot segments resolved as the browser's URL parser does, `%2e%2e` included) and checked
 * after: a result starting with `//` (`/..//host`), any backslash (browsers read `/\host` as `//host`), a
 * scheme, a control character (browsers strip tabs and newlines, which turns `/\t/host` into `//host`) or
 * `/login` itself gives `/home`. The accepted value is returned normalised.
 */
export function safeReturnTo(raw: string | null | undefined): string {
  // Stryker disable next-line ConditionalExpression: An empty string has no control character and `parseLocation('')` refuses it (it does not start with `/`) two lines later, so it still gives `/home`.
  // Stryker disable next-line StringLiteral: 'Stryker was here!' (which then gets `/home` early) and '' (which no longer does) are both refused by `parseLocation` a line later, as neither starts with `/`, so both still give `/home`.
  if (typeof raw !== 'string' || raw === '') return DEFAULT_RETURN_TO;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point.
  if (/[\u0000-\u001f\u007f-\u009f\\]/.test(raw)) return DEFAULT_RETURN_TO;
  const location = parseLocation(raw);
  if (location === null) return DEFAULT_RETURN_TO;
  const match = matchRoute(location.pathname);
  if (match !== null && NEVER_RETURN_TO.has(match.route.name)) return DEFAULT_RETURN_TO;
  return toFullPath(location);
}

/** The sign-in URL that brings the user back to `fullPath` afterwards. */
export function loginPathFor(fullPath: string): string {
  return `/login?${new URLSearchParams({ [RETURN_TO_PARAM]: fullPath }).toString()}`;
}
