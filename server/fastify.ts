/**
 * How Fastify itself is set up for the production server (server/app.ts): its log, request ids, body limit,
 * timeouts, what it does while shutting down, the requests it refuses before any hook runs, and which proxies it
 * believes.
 */
import { type FastifyServerOptions, LogController } from 'fastify';
import { fastifyTrustProxy } from '../api/environment.ts';
import type { ServerOptions } from './options.ts';
import { clientErrorHandler, frameworkErrors } from './plugins/errors.ts';
import { requestIds } from './plugins/requestId.ts';
import { LOG_SERIALIZERS } from './plugins/requestLog.ts';

/** The largest request body any route takes (the demo API's own limit is the same). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Fastify's options for a server with these `options`, these security headers and this build's shell page. */
export function fastifyOptions(
  options: ServerOptions,
  security: Record<string, string>,
  shellHtml: Buffer,
): FastifyServerOptions {
  return {
    logger: options.logger
      ? { ...(options.logger === true ? {} : options.logger), serializers: LOG_SERIALIZERS }
      : false,
    // One line per request, written by server/plugins/requestLog.ts, instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    // A trusted proxy's x-request-id when it is a safe token, else our own (server/plugins/requestId.ts): every
    // line a request logs carries it as `reqId`, and the response echoes it.
    requestIdHeader: false,
    genReqId: requestIds(options.trustProxy || false),
    bodyLimit: BODY_LIMIT_BYTES,
    // A plugin's start (the API's first sweep of its database) can take longer than Fastify's default 10 s on a
    // busy machine.
    pluginTimeout: 60_000,
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    // A slow client cannot hold a socket open for ever between requests, nor while sending headers.
    keepAliveTimeout: 5_000,
    connectionTimeout: 60_000,
    // While shutting down, idle keep-alive sockets are closed at once; new requests get our own 503
    // (server/plugins/drain.ts), which goes through the hooks and so carries the security headers.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Refused before any hook runs (server/plugins/errors.ts): these write the security headers themselves.
    clientErrorHandler: clientErrorHandler(security),
    frameworkErrors: frameworkErrors(security, shellHtml),
    trustProxy: fastifyTrustProxy(options.trustProxy || false),
    routerOptions: { maxParamLength: 2048 },
  };
}
