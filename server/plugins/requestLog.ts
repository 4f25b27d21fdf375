/**
 * The server's log: one line per request (never Fastify's two), a line for a client that hung up, and the
 * console-like logger the API, icon and image modules write through, which lands in the same structured log
 * with the request's id. Registered first, so every request is logged, refused ones included.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { type ApiLog, loggableError, loggablePath, type SecurityEvent } from '../../api/logSafe.ts';
import { visibleText } from '../../core/untrustedText.ts';

/**
 * The logger's serializers. Every `err` a line carries is cut down to its kind, words and frames
 * (api/logSafe.ts): a database error's query and parameters (a report's text, a password hash) never reach the
 * log. Fastify's type wants a stack on every serialized error; an error without frames gets an empty one.
 */
export const LOG_SERIALIZERS = { err: (error: unknown) => ({ stack: '', ...loggableError(error) }) };

/**
 * One structured line per security event (api/logSafe.ts), from the API and the server's own refusals alike:
 * `security` holds the event, never an email, a password or a token.
 */
export function logSecurityEvent(log: FastifyBaseLogger, event: SecurityEvent): void {
  log.warn({ security: event }, 'security event');
}

/** What the API, icon and image modules log through. */
export type ConsoleLogger = Pick<Console, 'warn' | 'error'> & Pick<ApiLog, 'security'>;

/**
 * The logger of the request being handled, for modules that log through a console-like object without the
 * request in hand (the API, images, icons): what they log carries the request id like every other line.
 */
const requestLogs = new AsyncLocalStorage<FastifyBaseLogger>();

/**
 * The console-style logger the API, icon and image modules take, writing to the server's structured log: an
 * Error goes to `err` (which the logger's serializer cuts down), the rest is the message, bounded and escaped.
 */
export function consoleLogger(baseLog: FastifyBaseLogger): ConsoleLogger {
  // Inside a request, its own logger, so the line carries the request's id.
  const current = () => requestLogs.getStore() ?? baseLog;
  const write =
    (level: 'warn' | 'error') =>
    (...args: unknown[]) => {
      const log = current();
      const err = args.find((arg) => arg instanceof Error);
      const msg = visibleText(
        args
          .filter((arg) => !(arg instanceof Error))
          .map(String)
          .join(' '),
      ).slice(0, 1_000);
      log[level](err ? { err } : {}, msg);
    };
  return {
    warn: write('warn'),
    error: write('error'),
    security: (event) => logSecurityEvent(current(), event),
  };
}

const logRequests: FastifyPluginAsync = async (app) => {
  // First of all hooks: what runs after it, to the end of the request, runs in the request's log context.
  app.addHook('onRequest', (request, _reply, done) => requestLogs.run(request.log, done));
  app.addHook('onResponse', async (request, reply) => {
    // Path only: a query string may carry tokens; headers (cookies) and bodies (passwords) are never logged.
    request.log.info(
      {
        method: request.method,
        path: loggablePath(request.raw.url),
        status: reply.statusCode,
        // The client's address as the trusted proxies say (TRUST_PROXY), the socket's otherwise.
        ip: request.ip,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    );
  });
  app.addHook('onRequestAbort', async (request) => {
    request.log.info(
      { method: request.method, path: loggablePath(request.raw.url), ip: request.ip },
      'client hung up',
    );
  });
};

export const requestLogPlugin = fastifyPlugin(logRequests, { name: 'request-log' });
