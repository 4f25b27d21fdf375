import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ApiHandler, type ApiResponse, errorResponse } from './api.ts';
import type { Logger } from './db.ts';

export const BODY_LIMIT_BYTES = 64 * 1024;

/** Connect-style middleware, as accepted by `server.middlewares.use`. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export interface MiddlewareOptions {
  /** Added before every response, to try slow networks by hand. */
  delayMs?: number;
  log?: Logger;
}

class PayloadTooLargeError extends Error {}

/**
 * Reads the whole body as UTF-8, or rejects with PayloadTooLargeError. An
 * oversized body is drained rather than cut off, so the client reliably gets
 * to read the 413 instead of a reset connection.
 */
export function readBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
    });
    req.on('end', () => {
      if (size > limit) reject(new PayloadTooLargeError());
      else resolve(size === 0 ? undefined : Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', reject);
  });
}

export function writeResponse(res: ServerResponse, response: ApiResponse): void {
  const payload = response.body === undefined ? undefined : JSON.stringify(response.body);
  res.statusCode = response.status;
  for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
  if (payload !== undefined) res.setHeader('content-length', Buffer.byteLength(payload));
  res.end(payload);
}

function apiPathname(url: string | undefined): string | undefined {
  try {
    const { pathname } = new URL(url ?? '/', 'http://localhost');
    return pathname.startsWith('/api/') ? pathname : undefined;
  } catch {
    return undefined;
  }
}

function isForeignRoute(pathname: string): boolean {
  // Served by another middleware (icon endpoint), not by the demo API.
  return pathname === '/api/_nuxt_icon' || pathname.startsWith('/api/_nuxt_icon/');
}

export function createMiddleware(handleApi: ApiHandler, options: MiddlewareOptions = {}): Middleware {
  const { delayMs = 0, log = console } = options;

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let response: ApiResponse;
    try {
      const body = await readBody(req);
      response = await handleApi({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        body,
      });
    } catch (error) {
      if (!(error instanceof PayloadTooLargeError)) throw error;
      response = errorResponse(413, `The request body must be at most ${BODY_LIMIT_BYTES / 1024} KiB.`);
    }
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    writeResponse(res, response);
  }

  return (req, res, next) => {
    const pathname = apiPathname(req.url);
    if (pathname === undefined || isForeignRoute(pathname)) {
      next();
      return;
    }
    serve(req, res).catch((error: unknown) => {
      // Last line of defence: a failure here must never take the dev server down.
      log.error(`[demo-api] ${req.method} ${req.url} failed:`, error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      writeResponse(res, errorResponse(500, 'The demo API failed unexpectedly.'));
    });
  };
}
