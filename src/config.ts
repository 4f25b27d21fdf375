/**
 * Every tunable of campaign-web, with the values the product spec gives. Nothing else hard-codes them:
 * machines receive what they need through `input`, and `src/main.tsx` supplies this object.
 */
export interface AppConfig {
  /** Base URL of the product API; `VITE_API_BASE_URL` overrides the same-origin default. */
  readonly apiBaseUrl: string;
  /** A request that has not answered by then fails with a timeout error the UI can explain. */
  readonly apiTimeoutMs: number;
  /**
   * A navigation that takes longer than this shows the loading indicator. Below it, nothing flashes:
   * most navigations settle within one frame budget plus a fast API round trip.
   */
  readonly slowNavigationMs: number;
  /** Guards may redirect; a chain longer than this is a bug in the guards and ends on an error page. */
  readonly maxRedirects: number;
  /** Paths echoed into error messages are cut to this many characters, so a hostile URL cannot flood the page. */
  readonly maxEchoedPathLength: number;
  /** The name shown in the header and in every document title. */
  readonly appName: string;
}

function readApiBaseUrl(): string {
  const fromEnv = import.meta.env?.VITE_API_BASE_URL;
  return typeof fromEnv === 'string' && fromEnv.trim() !== '' ? fromEnv.trim().replace(/\/+$/, '') : '/api';
}

export const config: AppConfig = {
  apiBaseUrl: readApiBaseUrl(),
  apiTimeoutMs: 10_000,
  slowNavigationMs: 250,
  maxRedirects: 10,
  maxEchoedPathLength: 200,
  appName: 'campaign-web',
};
