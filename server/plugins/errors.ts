/**
 * What a refused or failed request gets, wherever it fails: a text answer for pages and files, JSON for the API
 * (which answers JSON whatever happens), never a blank page, always with the security headers. The HTTP
 * parser's refusals and undecodable URLs happen before any hook, so they are Fastify's options
 * (`clientErrorHandler`, `frameworkErrors`); 404, 405 and errors are the root's handlers.
 */
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { API_PATH, isDocumentRequest, plain } from '../http.ts';
import { REQUEST_ID_HEADER } from './requestId.ts';
import { CACHE } from './securityHeaders.ts';

/** How long a refused request's connection stays open to drain what the client still sends. */
const LINGERING_CLOSE_MS = 2_000;

/** Whether the start of a raw request the parser refused asks for an API path (`GET /api/… HTTP/1.1`). */
export function isApiRequestLine(rawPacket: Buffer | undefined): boolean {
  const start = rawPacket?.toString('latin1', 0, 64) ?? '';
  return /^[A-Z]+ \/api([/?\s]|$)/.test(start);
}

/**
 * Fastify's `clientErrorHandler`: malformed requests, header overflow and request timeouts, answered by the
 * HTTP parser before any route, written to the socket with the security headers.
 */
export function clientErrorHandler(security: Record<string, string>) {
  return (error: NodeJS.ErrnoException, socket: import('node:stream').Duplex) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, text] =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'Request Header Fields Too Large']
          : [400, 'Bad Request'];
    const headers = Object.entries({ ...security, 'cache-control': CACHE.never })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    // An API client reads JSON whatever went wrong (a URL longer than the parser takes, say).
    const [type, body] = isApiRequestLine((error as { rawPacket?: Buffer }).rawPacket)
      ? ['application/json', JSON.stringify({ message: `${text}.` })]
      : ['text/plain; charset=utf-8', `${text}.`];
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${status} ${text}\r\n${headers}content-type: ${type}\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    }
    // A lingering close, as nginx does: a client still sending (a header block past the limit) would meet a
    // reset and could lose the answer, so what it sends is read and dropped for a moment after our FIN.
    socket.end();
    socket.resume();
    setTimeout(() => socket.destroy(), LINGERING_CLOSE_MS).unref();
  };
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot decode. Documents still get the app's shell (`shellHtml`:
 * this reply has no sendFile), which explains it; anything else a 400. No hook runs, so the headers are set here.
 */
export function frameworkErrors(security: Record<string, string>, shellHtml: Buffer) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(security).header(REQUEST_ID_HEADER, request.id);
    const rawPath = request.raw.url ?? '';
    const isEndpoint = /^\/(api|_ipx|assets|_app)(\/|$)/.test(rawPath);
    if (API_PATH.test(rawPath)) {
      return reply
        .code(400)
        .header('cache-control', CACHE.never)
        .send({ message: 'Bad request: the URL cannot be decoded.' });
    }
    if (
      error.code === 'FST_ERR_BAD_URL' &&
      request.method === 'GET' &&
      !isEndpoint &&
      isDocumentRequest(request)
    ) {
      return reply
        .code(200)
        .header('cache-control', CACHE.revalidate)
        .type('text/html; charset=utf-8')
        .send(shellHtml);
    }
    return plain(reply, 400, 'Bad request.');
  };
}

/**
 * The root's 404, 405 and error answers. Registered before the routes: a route keeps the error handler its
 * scope had when it was added (the API sets its own).
 */
const answerErrors: FastifyPluginAsync = async (app) => {
  // Pages and files answer GET and HEAD only; any other method is a 405 that says so (a form posted before the
  // app ran lands here).
  app.setNotFoundHandler((request, reply) =>
    request.method === 'GET' || request.method === 'HEAD'
      ? plain(reply, 404, 'Not found.')
      : plain(reply.header('allow', 'GET, HEAD'), 405, 'Method not allowed.'),
  );
  app.setErrorHandler((error, request, reply) => {
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    return plain(
      reply,
      status >= 400 && status < 600 ? status : 500,
      status >= 500 ? 'Internal server error.' : error instanceof Error ? error.message : 'Bad request.',
    );
  });
};

export const errorsPlugin = fastifyPlugin(answerErrors, { name: 'errors' });
