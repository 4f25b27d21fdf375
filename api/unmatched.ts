/**
 * What the API answers a request no route takes: a 404 in JSON for an unknown path (a 414 for an over-long URL),
 * and a 405 naming the methods that work for a known path asked with another method. Both act on the API
 * plugin's own scope (./plugin.ts), whose error answers and hooks they share.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { HttpError } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A stand-in route that only answers 405. */
    methodNotAllowed?: boolean;
  }
}

/** Longer API URLs are refused with a 414: no route of this API needs more, and the router's limit is 2048. */
const MAX_URL_LENGTH = 2048;
/** How much of an unknown path a 404 message echoes back. */
const MAX_ECHOED_PATH = 200;
const ALL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

async function noRoute(request: FastifyRequest, reply: FastifyReply) {
  if (request.url.length > MAX_URL_LENGTH) {
    return reply.code(414).send({ message: `The URL is too long (at most ${MAX_URL_LENGTH} characters).` });
  }
  const path = request.url.split('?')[0] ?? '';
  const shown = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
  return reply.code(404).send({ message: `No API route for ${request.method} ${shown}.` });
}

/** The 404s and 414s. */
export function answerUnknownPaths(app: FastifyInstance): void {
  app.setNotFoundHandler(noRoute);
  // Every URL under the prefix is the API's, whatever no route here matched (a parameter longer than the
  // router takes, say): without these it would reach the production server's page fallback and get HTML.
  // Stand-ins, not routes: left out of the OpenAPI document (`hide`).
  app.all('/', { schema: { hide: true } }, noRoute);
  app.all('/*', { schema: { hide: true } }, noRoute);
}

/**
 * Records every method each path answers from now on; the function it returns adds the 405s for the paths
 * recorded, so it is called once every route is registered.
 */
export function recordMethods(app: FastifyInstance): () => void {
  const routes = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.config?.methodNotAllowed) return;
    const path = route.url.slice(route.prefix.length) || '/';
    const methods = routes.get(path) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    routes.set(path, methods);
  });
  // Any other method on a known path: 405 with the methods that work.
  return () => {
    for (const [url, methods] of routes) {
      const others = ALL_METHODS.filter((method) => !methods.has(method));
      const allow = [...methods].filter((method) => method !== 'HEAD').join(', ');
      app.route({
        method: others,
        url,
        config: { methodNotAllowed: true },
        schema: { hide: true },
        handler: async (request) => {
          throw new HttpError(
            405,
            `${request.method} is not allowed on ${request.url.split('?')[0]}; use ${allow}.`,
            {
              allow,
            },
          );
        },
      });
    }
  };
}
