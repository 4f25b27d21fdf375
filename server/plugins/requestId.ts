/**
 * Request ids: a trusted proxy's `x-request-id` (TRUST_PROXY) is kept, so one id follows a request through the
 * proxy's log and ours; a request without one, with one we would not write into a log, or from a peer that is not
 * a trusted proxy (the client itself, whose id would be a label of its choosing) gets a new one. The id is
 * Fastify's request id (every line a request logs carries it as `reqId`) and goes back in the response's
 * `x-request-id`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { type TrustProxy, trustsPeer } from '../../api/environment.ts';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What is taken from outside: a short token of letters, digits and `-_.:@=+/` (UUIDs, ULIDs, nginx's hex ids,
 * AWS's `Root=1-…` trace ids). Nothing that could end a log line, open an escape or fill the log.
 */
const WELL_FORMED = /^[A-Za-z0-9][A-Za-z0-9._:@=+/-]{0,127}$/;

/**
 * Fastify's `genReqId` for a server behind `trustProxy`: the incoming request's id when a trusted proxy sent a
 * well-formed one (once: a repeated header is not), else a new UUID.
 */
export function requestIds(
  trustProxy: TrustProxy,
): (request: Pick<IncomingMessage, 'headers' | 'socket'>) => string {
  const trusted = trustsPeer(trustProxy);
  return (request) => {
    const sent = request.headers[REQUEST_ID_HEADER];
    return typeof sent === 'string' && WELL_FORMED.test(sent) && trusted(request.socket?.remoteAddress)
      ? sent
      : randomUUID();
  };
}

/** Echoes the request's id on every reply, refusals included (Fastify's `genReqId` is from `requestIds`). */
const echoRequestId: FastifyPluginAsync = async (app) => {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    return payload;
  });
};
export const requestIdPlugin = fastifyPlugin(echoRequestId, { name: 'request-id' });
