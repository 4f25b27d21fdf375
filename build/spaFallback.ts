/**
 * Vite's own SPA fallback gives up on a path it cannot decode (`/campaign/%E0%A4%A`) and answers an empty
 * 404, so the app never starts to explain it. Such a document request gets the app's HTML instead; the app
 * then shows its own 404 page for the path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'vite';

function isUndecodable(url: string): boolean {
  try {
    decodeURI(url.split('?')[0] ?? '');
    return false;
  } catch {
    return true;
  }
}

export function spaFallbackForMalformedPaths(): Plugin {
  let base = '/';
  const middleware = (req: IncomingMessage, _res: ServerResponse, next: () => void) => {
    const accept = req.headers.accept ?? '';
    if (
      (req.method === 'GET' || req.method === 'HEAD') &&
      accept.includes('text/html') &&
      req.url &&
      isUndecodable(req.url)
    ) {
      req.url = `${base}index.html`;
    }
    next();
  };
  return {
    name: 'campaign-web:spa-fallback-for-malformed-paths',
    configResolved(resolved) {
      base = resolved.base;
    },
    configureServer: (server) => void server.middlewares.use(middleware),
    configurePreviewServer: (server) => void server.middlewares.use(middleware),
  };
}
