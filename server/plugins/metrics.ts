/**
 * Prometheus metrics of the production server (prom-client). Never public: served either on a separate port
 * (METRICS_PORT, bound to METRICS_HOST, 127.0.0.1 unless it says otherwise) for a scraper on the private network,
 * or at /metrics on the server's own port behind a bearer token (METRICS_TOKEN, at least 32 characters). Without
 * either nothing is measured and /metrics is whatever any unknown path is; with a token, a request without it
 * gets the same 404, so the route is invisible to anyone who does not hold it, and an address that keeps
 * guessing gets that 404 for its right guess too until its window ends.
 *
 * The separate port answers only a request whose Host is an IP address, `localhost` or METRICS_HOST (421
 * otherwise): a page of another site that rebinds its name to this machine's address sends its own name.
 *
 * Labels are bounded: a request's route is the route's pattern (`/api/campaigns/:id`, `/*`), never the URL.
 */
import { createServer, type Server } from 'node:http';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { limitKey } from '../../api/clientAddress.ts';
import { bearerToken, sameSecret } from '../../api/secrets.ts';
import { logSecurityEvent } from './requestLog.ts';

/** Wrong tokens one address may send to /metrics per window; then even its right one is a 404. */
export const TOKEN_GUESSES = { points: 10, duration: 900 };

export interface MetricsConfig {
  /** A separate port for the metrics alone (null: none). */
  port: number | null;
  /** Where that port listens (METRICS_HOST; 127.0.0.1 by default). */
  host?: string;
  /** Bearer token that opens /metrics on the server's own port (null: no such route). */
  token: string | null;
}

export interface MetricsSources {
  /** Image renders running and waiting (server/routes/images.ts). */
  imageRenders?: () => { inFlight: number; queued: number };
  /** The PostgreSQL pool's clients; PGlite has no pool (one embedded connection), so it gives none. */
  databasePool?: () => { total: number; idle: number; waiting: number } | undefined;
}

/** The metrics settings from the server's environment (server/environment.ts): METRICS_PORT 0 means none. */
export function metricsConfigFrom(values: {
  METRICS_PORT: number;
  METRICS_HOST: string;
  METRICS_TOKEN: string | null;
}): MetricsConfig {
  return {
    port: values.METRICS_PORT === 0 ? null : values.METRICS_PORT,
    host: values.METRICS_HOST,
    token: values.METRICS_TOKEN,
  };
}

export const isMetricsOn = (config: MetricsConfig) => config.port !== null || config.token !== null;

/** The route a request matched, as its pattern; requests no route matched share one label. */
function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched';
}

/**
 * Registers the metrics and the hooks that feed them on `app` (call before its routes are added, so the
 * hooks see every route). Returns the registry, for `serveMetrics`.
 */
export function installMetrics(
  app: FastifyInstance,
  config: MetricsConfig,
  sources: MetricsSources = {},
): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const signInRefusals = new Counter({
    name: 'sign_in_refusals_total',
    help: 'Sign-in attempts refused by the attempt limits (429).',
    registers: [registry],
  });
  const reports = new Counter({
    name: 'reports_received_total',
    help: 'Error and web-vitals reports stored (POST /api/reports answered 201), by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'image_renders',
    help: 'Image renders running (in_flight) and waiting for a slot (queued).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const renders = sources.imageRenders?.();
      if (!renders) return;
      this.set({ state: 'in_flight' }, renders.inFlight);
      this.set({ state: 'queued' }, renders.queued);
    },
  });
  new Gauge({
    name: 'db_pool_clients',
    help: 'PostgreSQL pool clients: all open (total), idle, and queries waiting for one (waiting). Absent on PGlite.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = sources.databasePool?.();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = routeOf(request);
    const status = reply.statusCode;
    duration.observe({ method: request.method, route, status: String(status) }, reply.elapsedTime / 1000);
    if (request.method !== 'POST') return;
    // Both ways in refuse sign-ins: the JSON API and the no-JavaScript form (api/forms.ts).
    if ((route === '/api/session' || route === '/login') && status === 429) signInRefusals.inc();
    else if (route === '/api/reports' && status === 201) {
      const kind = (request.body as { kind?: unknown } | undefined)?.kind;
      reports.inc({ kind: kind === 'vitals' ? 'vitals' : 'error' });
    }
  });

  const { token } = config;
  if (token !== null) {
    // In this process's memory: the route is this process's, and a scraper asks each instance.
    const guesses = new RateLimiterMemory(TOKEN_GUESSES);
    app.get('/metrics', async (request: FastifyRequest, reply: FastifyReply) => {
      reply.header('cache-control', 'no-store');
      const address = limitKey(request.ip);
      const spent = ((await guesses.get(address))?.consumedPoints ?? 0) >= TOKEN_GUESSES.points;
      if (spent || !hasBearer(request.headers.authorization, token)) {
        if (!spent) await guesses.consume(address).catch(() => undefined);
        logSecurityEvent(
          request.log,
          spent
            ? { event: 'rate-limited', address, limit: 'metrics-token' }
            : { event: 'token.refused', address, token: 'metrics' },
        );
        return reply.code(404).type('text/plain; charset=utf-8').send('Not found.');
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    });
  }
  return registry;
}

/** Whether the header carries `token`, compared in constant time whatever the lengths (api/secrets.ts). */
export function hasBearer(header: string | undefined, token: string): boolean {
  return sameSecret(bearerToken(header), token);
}

/**
 * Whether a request to the metrics port names this machine as an operator would: an IP address (what a
 * scraper's target is), `localhost`, or the METRICS_HOST name. A rebinding page sends its own domain.
 */
export function isMetricsHost(hostHeader: string | undefined, metricsHost: string): boolean {
  if (!hostHeader) return false;
  let hostname: string;
  try {
    hostname = new URL(`http://${hostHeader}`).hostname;
  } catch {
    return false;
  }
  const bare = hostname.replace(/^\[|\]$/g, '');
  return isIP(bare) !== 0 || bare === 'localhost' || bare === metricsHost.toLowerCase();
}

/** The metrics alone on their own port: GET /metrics, 404 for anything else. */
export function serveMetrics(registry: Registry, port: number, host: string): Promise<Server> {
  const server = createServer(async (request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (!isMetricsHost(request.headers.host, host)) {
      response
        .writeHead(421, { 'content-type': 'text/plain; charset=utf-8' })
        .end('Misdirected request: this port answers to its own address only.');
      return;
    }
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found.');
      return;
    }
    try {
      const body = await registry.metrics();
      response
        .writeHead(200, { 'content-type': registry.contentType, 'cache-control': 'no-store' })
        .end(body);
    } catch {
      response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics failed.');
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/**
 * The metrics when configured (off when `config` is omitted): the hooks on the root, before any route, so they
 * see every route; the separate port opens and closes with the server. The routes fill `sources`.
 */
const measure: FastifyPluginAsync<{ config?: MetricsConfig; sources: MetricsSources }> = async (
  app,
  { config, sources },
) => {
  if (!config || !isMetricsOn(config)) return;
  const registry = installMetrics(app, config, sources);
  const { port } = config;
  if (port === null) return;
  let server: Server | undefined;
  app.addHook('onListen', async () => {
    server = await serveMetrics(registry, port, config.host ?? '127.0.0.1');
  });
  app.addHook('onClose', async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });
};

export const metricsPlugin = fastifyPlugin(measure, { name: 'metrics' });
