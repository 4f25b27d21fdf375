/**
 * What the server's plugins and routes share about HTTP, and the shape of the Node middlewares that Vite's dev
 * server mounts (build/devEndpoints.ts) for the icon and image endpoints.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CACHE } from './plugins/securityHeaders.ts';

/** Connect-style middleware, as accepted by `server.middlewares.use`. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

export type Logger = Pick<Console, 'warn' | 'error'>;

/** A path of the API, which answers JSON whatever happens. */
export const API_PATH = /^\/api(\/|\?|$)/;

/** Whether a browser asks for a page (so it gets the app, which explains what went wrong). */
export function isDocumentRequest(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') || accept.includes('*/*');
}

/** A short text answer that no cache keeps: refusals and errors. */
export function plain(reply: FastifyReply, status: number, message: string) {
  return reply
    .code(status)
    .header('cache-control', CACHE.never)
    .type('text/plain; charset=utf-8')
    .send(message);
}
