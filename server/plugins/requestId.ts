/**
 * Request ids: a proxy's `x-request-id` is kept, so one id follows a request through the proxy's log and ours;
 * a request without one, or with one we would not write into a log, gets a new one. The id is Fastify's request
 * id (every line a request logs carries it as `reqId`) and goes back in the response's `x-request-id`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What is taken from outside: a short token of letters, digits and `-_.:@=+/` (UUIDs, ULIDs, nginx's hex ids,
 * AWS's `Root=1-…` trace ids). Nothing that could end a log line, open an escape or fill the log.
 */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:@=+/-]{0,127}$/;

/** The incoming request's id if it sent a well-formed one (once: a repeated header is not), else a new UUID. */
export function requestIdOf(request: Pick<IncomingMessage, 'headers'>): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && WELL_FORMED.test(sent) ? sent : randomUUID();
}

/** Echoes the request's id on every reply, refusals included (Fastify's `genReqId` is `requestIdOf`). */
const echoRequestId: FastifyPluginAsync = async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    return payload;
  });
};
export const requestIdPlugin = fastifyPlugin(echoRequestId, { name: 'request-id' });
