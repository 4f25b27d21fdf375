/**
 * Shutting down without dropping work: SIGTERM's first step drains (server/start.ts: /healthz answers 503 so a
 * proxy or orchestrator stops sending here, while requests are still served), then close() refuses new
 * requests with a 503 of our own, which goes through the hooks and so carries the security headers, unlike
 * Fastify's built-in one.
 */
import type { FastifyPluginAsync } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { plain } from '../http.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * SIGTERM's first step (server/start.ts): /healthz answers 503 so a proxy or orchestrator stops sending
     * here, while requests are still served until close().
     */
    startDraining(): void;
    /** Whether the server is draining or closing: /healthz says so. */
    isDraining(): boolean;
  }
}

const drain: FastifyPluginAsync = async (app) => {
  let closing = false;
  let draining = false;
  app.decorate('startDraining', () => {
    draining = true;
  });
  app.decorate('isDraining', () => draining || closing);
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) {
      reply.header('connection', 'close').header('retry-after', '1');
      return plain(reply, 503, 'The server is shutting down; try again in a moment.');
    }
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    // A request that was in flight when shutdown began: its connection ends with it, so close() need not
    // wait for the keep-alive timeout. While draining, a proxy's kept-alive connections are ended too, so it
    // opens new ones to the other instances.
    if (closing || draining) reply.header('connection', 'close');
    return payload;
  });
};

export const drainPlugin = fastifyPlugin(drain, { name: 'drain' });
