/**
 * The coarse per-address limits of the server: requests to /api/* and renders of new image variants,
 * counted by @fastify/rate-limit per client address (api/clientAddress.ts limitKey: a proxy's word only with
 * TRUST_PROXY, an IPv6 client's /64). They are far above what the app or a person does and catch floods only;
 * the abuse limits that matter (sign-in failures, reports) live in the database too (api/rateLimits.ts). These
 * counts are kept in the database every instance shares (./rateLimitStore.ts), so behind N instances a client
 * still gets the limit once (docs/security.md).
 *
 * Each answer says where the client stands in the IETF's RateLimit header fields
 * (draft-ietf-httpapi-ratelimit-headers-08): `RateLimit-Policy: "api";q=1200;w=60` and `RateLimit:
 * "api";r=1187;t=42`. The plugin writes only the older draft's three headers, so the server writes these from
 * the plugin's count.
 */
import fastifyRateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { limitKey } from '../../api/clientAddress.ts';
import { API_PATH } from '../http.ts';
import { logSecurityEvent } from './requestLog.ts';
import { CACHE } from './securityHeaders.ts';

export interface RateLimits {
  /** Requests to /api/* per client address per minute. */
  apiPerMinute: number;
  /** Renders of image variants not yet cached, per client address per minute. */
  imageVariantsPerMinute: number;
}

/** A limit's verdict: the headers to send, and when refused, the seconds to wait. */
export interface Verdict {
  headers: Record<string, string>;
  retryAfterSeconds: number | null;
}

export type Limiter = (request: FastifyRequest) => Promise<Verdict>;

const WINDOW_MS = 60_000;

/** API_REQUESTS_PER_MINUTE and IMAGE_VARIANTS_PER_MINUTE's defaults (server/environment.ts). */
export const RATE_LIMIT_DEFAULTS: RateLimits = { apiPerMinute: 1_200, imageVariantsPerMinute: 300 };

/** One limiter per policy. */
export interface Limiters {
  api: Limiter;
  imageVariants: Limiter;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The per-address limiters; the image route asks `imageVariants` before a render (routes/images.ts). */
    rateLimiters: Limiters;
  }
}

/** Where the counts are kept: the database's store (./rateLimitStore.ts). */
export interface RateLimitStorage {
  store: FastifyRateLimitStoreCtor;
}

/** Registers the plugin (on no route of its own) and returns one limiter per policy. */
export async function installRateLimits(
  app: FastifyInstance,
  limits: RateLimits,
  { store }: RateLimitStorage,
): Promise<Limiters> {
  await app.register(fastifyRateLimit, { global: false, store });
  const limiter = (policy: string, max: number): Limiter => {
    const check = app.createRateLimit({
      max,
      timeWindow: WINDOW_MS,
      // One store for both policies: the name keeps their counts apart.
      keyGenerator: (request) => `${policy} ${limitKey(request.ip)}`,
    });
    return async (request) => {
      const result = await check(request);
      // Allowed outright only on an allow list, which these limits do not have.
      if (result.isAllowed) return { headers: {} as Record<string, string>, retryAfterSeconds: null };
      const seconds = Math.max(1, result.ttlInSeconds);
      return {
        headers: {
          'ratelimit-policy': `"${policy}";q=${result.max};w=${result.timeWindow / 1000}`,
          ratelimit: `"${policy}";r=${result.remaining};t=${seconds}`,
        },
        retryAfterSeconds: result.isExceeded ? seconds : null,
      };
    };
  };
  return {
    api: limiter('api', limits.apiPerMinute),
    imageVariants: limiter('image-variants', limits.imageVariantsPerMinute),
  };
}

/** Every /api request counts against the address's limit; the limiters are the root's `rateLimiters`. */
const limitRates: FastifyPluginAsync<RateLimits & RateLimitStorage> = async (app, limits) => {
  const limiters = await installRateLimits(app, limits, limits);
  app.decorate('rateLimiters', limiters);
  app.addHook('onRequest', async (request, reply) => {
    if (!API_PATH.test(request.url)) return;
    const verdict = await limiters.api(request);
    reply.headers(verdict.headers);
    if (verdict.retryAfterSeconds !== null) {
      logSecurityEvent(request.log, { event: 'rate-limited', address: limitKey(request.ip), limit: 'api' });
      return reply
        .code(429)
        .header('retry-after', String(verdict.retryAfterSeconds))
        .header('cache-control', CACHE.never)
        .type('application/json; charset=utf-8')
        .send(
          JSON.stringify({
            message: `Too many requests from this address; try again in ${verdict.retryAfterSeconds} s.`,
          }),
        );
    }
  });
};

export const rateLimitPlugin = fastifyPlugin(limitRates, { name: 'rate-limits' });
