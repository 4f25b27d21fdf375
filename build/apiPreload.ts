/**
 * Starts the first API request of every page, the session check, together with the app's JavaScript instead
 * of after it: `<link rel="preload" as="fetch">` in `index.html`. `crossorigin="anonymous"` gives the preload
 * the credentials mode `same-origin`, the one the API client uses (src/platform/api.ts), so the browser
 * hands its response to the client's `fetch` instead of asking twice. No inline script is involved, so a
 * strict CSP needs no exception for it.
 */
import type { Plugin } from 'vite';
import { apiBaseFrom, DEFAULT_API_BASE } from '../core/apiBase.ts';

export function sessionPreloadTag(apiBase: string) {
  return {
    tag: 'link',
    attrs: { rel: 'preload', href: `${apiBase}/session`, as: 'fetch', crossorigin: 'anonymous' },
    injectTo: 'head' as const,
  };
}

export function apiPreload(): Plugin {
  let apiBase = DEFAULT_API_BASE;
  return {
    name: 'campaign-web:api-preload',
    configResolved(resolved) {
      // The client's own rule (src/config.ts reads the same variable through it), on the build's environment.
      apiBase = apiBaseFrom(resolved.env.VITE_API_BASE_URL);
    },
    transformIndexHtml: () => [sessionPreloadTag(apiBase)],
  };
}
