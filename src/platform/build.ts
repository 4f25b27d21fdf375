import { fromCallback, fromPromise } from 'xstate';
import type { AppEvent, ReloadClaim } from '../../machines/app/app.machine';
import { config } from '../config';
import { claimReload, sessionStorageOrNull } from './reloadGuard';
import { type SignalStatics, withTimeout } from './signals';

/**
 * A JSON document of this build's own files; anything else (HTML from a captive portal, a 404) rejects. The
 * actor's signal is combined with the API timeout; where the browser lacks `AbortSignal.any` the combination
 * falls back rather than throwing, which would fail every update check silently.
 */
export async function fetchJson(
  url: string,
  signal: AbortSignal,
  cache: RequestCache,
  signals: SignalStatics = AbortSignal,
): Promise<unknown> {
  const timed = withTimeout(signal, config.apiTimeoutMs, signals);
  try {
    const response = await fetch(url, {
      cache,
      credentials: 'same-origin',
      headers: { accept: 'application/json' },
      signal: timed.signal,
    });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    // Stryker disable next-line StringLiteral: The fallback for an answer without a content-type header only has to not include 'json'; 'Stryker was here!' does not either, so such an answer is rejected as not JSON with and without the mutant. tests/platform/build.test.ts sends a response without the header and gets '... is not JSON' both ways.
    if (!(response.headers.get('content-type') ?? '').includes('json')) throw new Error(`${url} is not JSON`);
    return await response.json();
  } finally {
    timed.dispose();
  }
}

/** The build manifest with the route rules; immutable per build id, so the HTTP cache may answer. */
export const fetchManifest = fromPromise<unknown, { buildId: string }>(({ input, signal }) =>
  fetchJson(`${config.build.manifestBase}/meta/${encodeURIComponent(input.buildId)}.json`, signal, 'default'),
);

/** The newest build's id; the timestamp query and `no-store` keep every cache out of the way. */
export const fetchLatestBuild = fromPromise<unknown>(({ signal }) =>
  fetchJson(`${config.build.manifestBase}/latest.json?${Date.now()}`, signal, 'no-store'),
);

export const claimPageReload = fromPromise<ReloadClaim, { path: string }>(async ({ input }) =>
  claimReload(
    sessionStorageOrNull(),
    config.build.reloadGuardKey,
    input.path,
    Date.now(),
    config.build.reloadGuardMs,
    { max: config.build.maxReloads, windowMs: config.build.reloadCapWindowMs },
  ),
);

/**
 * Tells the app whether the tab is visible and online (now, and on every change) and when the page comes back
 * from the back/forward cache (`pageshow` with `persisted`: the app goes on where it was, with a session and a
 * build that may have changed meanwhile), and swallows Vite's preload errors for CSS, which the reference
 * system also ignores: a missing stylesheet is no reason to fail. A failed JavaScript preload is left alone:
 * its import rejects and the navigation recovers. (No `unload` listener anywhere: one would keep every page of
 * the app out of the back/forward cache.)
 */
export const watchPage = fromCallback<AppEvent>(({ sendBack }) => {
  const report = () =>
    sendBack({
      type: 'page.changed',
      visible: document.visibilityState !== 'hidden',
      online: navigator.onLine !== false,
    });
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted) sendBack({ type: 'page.restored' });
  };
  const onPreloadError = (event: Event) => {
    const payload = (event as Event & { payload?: unknown }).payload;
    if (payload instanceof Error && payload.message.includes('Unable to preload CSS')) event.preventDefault();
  };
  report();
  document.addEventListener('visibilitychange', report);
  window.addEventListener('online', report);
  window.addEventListener('offline', report);
  window.addEventListener('pageshow', onPageShow);
  window.addEventListener('vite:preloadError', onPreloadError);
  return () => {
    document.removeEventListener('visibilitychange', report);
    window.removeEventListener('online', report);
    window.removeEventListener('offline', report);
    window.removeEventListener('pageshow', onPageShow);
    window.removeEventListener('vite:preloadError', onPreloadError);
  };
});

/** `slow-2g` only, as the reference: plain 2G still fetches the manifest. */
export function isSlowConnection(): boolean {
  const connection = (navigator as Navigator & { connection?: { effectiveType?: string } }).connection;
  return connection?.effectiveType === 'slow-2g';
}

/** A full document load of an app path: the newer build's HTML and chunks come with it. */
export function loadDocument(url: string): void {
  const target = new URL(url, window.location.href);
  if (target.origin !== window.location.origin) return;
  if (target.href === window.location.href) window.location.reload();
  else window.location.assign(target.href);
}
