/**
 * Load shedding: while the event loop lags (sign-ins' hashes and image renders run off it, so a lag means more
 * work than this process can take), a request is refused at once with 503 + Retry-After instead of waiting in a
 * queue that only grows; a proxy in front retries another instance. /healthz is never shed (its route says so).
 */
import fastifyUnderPressure from '@fastify/under-pressure';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { API_PATH } from '../http.ts';
import { CACHE } from './securityHeaders.ts';

export interface LoadShedding {
  /** Requests get 503 + Retry-After while the event loop's mean lag over a sample is past this. */
  maxEventLoopDelayMs: number;
  /** How often the lag is sampled (under-pressure's default, 1 s, unless a test wants it sooner). */
  sampleIntervalMs?: number;
}

/** What a shed request is told to wait: about the time a lagging loop takes to catch up. */
export const SHED_RETRY_AFTER_SECONDS = 5;

/** Off when `maxEventLoopDelayMs` is 0. */
const shedLoad: FastifyPluginAsync<LoadShedding> = async (app, options) => {
  const maxEventLoopDelay = options.maxEventLoopDelayMs;
  if (!(maxEventLoopDelay > 0)) return;
  const sampleInterval = options.sampleIntervalMs ?? 1_000;
  let readyAt = Number.POSITIVE_INFINITY;
  app.addHook('onReady', async () => {
    readyAt = performance.now();
  });
  // The answer is returned, not sent: under-pressure sends a returned value and stops there, while after a
  // `reply.send` of our own it would go on to the route, which answers again (a 500 when the route has a
  // response schema and its answer was still on its way). Its types allow no return value; its README does.
  const shed = (request: FastifyRequest, reply: FastifyReply, type: string, value: number | undefined) => {
    // The samples just after the start hold the start-up's own synchronous work (opening and seeding the
    // database: seconds), which is over: shedding on them would turn away the first requests after every
    // start.
    if (performance.now() - readyAt < 2 * sampleInterval) return undefined;
    request.log.warn({ pressure: type, value }, 'shedding load');
    reply
      .code(503)
      .header('retry-after', String(SHED_RETRY_AFTER_SECONDS))
      .header('cache-control', CACHE.never);
    const message = 'The server is busy; try again in a few seconds.';
    // Ready-made text, so no route's response schema (none has a 503) is involved.
    if (API_PATH.test(request.url)) {
      reply.type('application/json; charset=utf-8');
      return JSON.stringify({ message });
    }
    reply.type('text/plain; charset=utf-8');
    return message;
  };
  const shedRequest = shed as unknown as (
    request: FastifyRequest,
    reply: FastifyReply,
    type: string,
    value: number | undefined,
  ) => void;
  await app.register(fastifyUnderPressure, {
    maxEventLoopDelay,
    sampleInterval,
    pressureHandler: shedRequest,
  });
};

export const loadSheddingPlugin = fastifyPlugin(shedLoad, { name: 'load-shedding' });
