/**
 * Reports from the browser: errors the visitor was shown and samples of web vitals (src/platform/reporter.ts
 * sends them). POST /api/reports stores one; GET /api/reports lists them for `npm run reports` and
 * `npm run replay` when the server holds the embedded database, and only with REPORTS_TOKEN.
 *
 * Hostile input: the route lives inside the API plugin, so its same-origin check, JSON-only parsing and
 * clear 400s apply; its body limit is 16 KiB (413 above); each client address may send `perAddress`
 * reports per window (429 with Retry-After). The address is used for that count in this process's memory
 * only and is never stored; no cookie is read.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Database } from './database/schema.ts';
import { type FieldMessages, HttpError } from './errors.ts';
import { errorBody } from './schemas.ts';
import type { ReportBody, StoredReport } from './types.ts';

export interface ReportsConfig {
  /** Newest reports kept; older ones go at the next pruning. */
  maxCount: number;
  /** Reports older than this many days go at the next pruning. */
  maxAgeDays: number;
  /** Reports one client address may send per window. */
  perAddress: number;
  windowSeconds: number;
  bodyLimitBytes: number;
  /** Bearer token that opens GET /api/reports; null keeps that route closed. */
  readToken: string | null;
}

export const REPORT_DEFAULTS = {
  maxCount: 10_000,
  maxAgeDays: 30,
  perAddress: 30,
  windowSeconds: 60,
  bodyLimitBytes: 16 * 1024,
  maxEvents: 50,
} as const;

type Env = Record<string, string | undefined>;

/** `int` is config.ts's reader (same validation, same messages). */
export function readReportsConfig(int: (name: string, fallback: number) => number, env: Env): ReportsConfig {
  const token = env.REPORTS_TOKEN?.trim() ?? '';
  return {
    maxCount: int('REPORTS_MAX_COUNT', REPORT_DEFAULTS.maxCount),
    maxAgeDays: int('REPORTS_MAX_AGE_DAYS', REPORT_DEFAULTS.maxAgeDays),
    perAddress: int('REPORTS_PER_ADDRESS', REPORT_DEFAULTS.perAddress),
    windowSeconds: int('REPORTS_WINDOW_SECONDS', REPORT_DEFAULTS.windowSeconds),
    bodyLimitBytes: REPORT_DEFAULTS.bodyLimitBytes,
    readToken: token === '' ? null : token,
  };
}

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;

/** The report as the browser sends it (ReportBody in ../types.ts). */
export const reportBodySchema = {
  type: 'object',
  required: ['kind', 'buildId', 'route', 'state', 'events', 'eventsDropped', 'boot', 'time'],
  additionalProperties: false,
  properties: {
    kind: { type: 'string', enum: ['error', 'vitals'] },
    buildId: { type: 'string', minLength: 1, maxLength: 64 },
    route: {
      type: 'object',
      required: ['name', 'path'],
      additionalProperties: false,
      properties: {
        name: { type: ['string', 'null'], maxLength: 64 },
        path: { type: 'string', maxLength: 2048, pattern: '^/[^?#]*$' },
      },
    },
    state: { anyOf: [{ type: 'string', maxLength: 500 }, { type: 'object' }] },
    events: {
      type: 'array',
      maxItems: REPORT_DEFAULTS.maxEvents,
      items: {
        type: 'object',
        required: ['type'],
        maxProperties: 8,
        properties: { type: { type: 'string', minLength: 1, maxLength: 160 } },
      },
    },
    eventsDropped: { type: 'integer', minimum: 0 },
    boot: {
      type: ['object', 'null'],
      required: ['path', 'title'],
      additionalProperties: false,
      properties: { path: text(2048), title: { type: ['string', 'null'], maxLength: 300 } },
    },
    error: {
      type: 'object',
      required: ['name', 'message', 'status'],
      additionalProperties: false,
      properties: {
        name: text(200),
        message: text(2000),
        status: { type: ['integer', 'null'], minimum: 100, maximum: 999 },
      },
    },
    vitals: {
      type: 'array',
      minItems: 1,
      maxItems: 8,
      items: {
        type: 'object',
        required: ['name', 'value', 'rating'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', enum: ['LCP', 'INP', 'CLS', 'TTFB'] },
          value: { type: 'number', minimum: 0, maximum: 3_600_000 },
          rating: { type: 'string', enum: ['good', 'needs-improvement', 'poor'] },
          attribution: {
            type: 'object',
            maxProperties: 8,
            additionalProperties: { anyOf: [text(300), { type: 'number' }] },
          },
        },
      },
    },
    time: { type: 'integer', minimum: 0 },
  },
  allOf: [
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords; this object is never awaited.
    { if: { properties: { kind: { const: 'error' } } }, then: { required: ['error'] } },
    // biome-ignore lint/suspicious/noThenProperty: as above.
    { if: { properties: { kind: { const: 'vitals' } } }, then: { required: ['vitals'] } },
  ],
} as const;

const reportMessages: FieldMessages = {
  'route.path': {
    pattern: 'The route path must be a path starting with / with no query string or fragment.',
  },
  events: { maxItems: `A report holds at most ${REPORT_DEFAULTS.maxEvents} events.` },
  error: { required: 'An error report must say what the error was ("error").' },
  vitals: { required: 'A vitals report must hold at least one measurement ("vitals").' },
};

const storedResponse = {
  201: {
    type: 'object',
    required: ['id'],
    additionalProperties: false,
    properties: { id: { type: 'string' } },
  },
  '4xx': errorBody,
  '5xx': errorBody,
} as const;

export interface ReportRoutesOptions {
  db: Kysely<Database>;
  config: ReportsConfig;
  now: () => number;
}

/**
 * Adds the report routes to the API plugin's own scope (called inside it, so its hooks, parsers and error
 * answers apply). Returns the pruning, which runs with the sessions'.
 */
export function reportRoutes(app: FastifyInstance, { db, config, now }: ReportRoutesOptions) {
  const limiter = new RateLimiterMemory({ points: config.perAddress, duration: config.windowSeconds });

  app.post<{ Body: ReportBody }>(
    '/reports',
    {
      bodyLimit: config.bodyLimitBytes,
      schema: { body: reportBodySchema, response: storedResponse },
      config: { messages: reportMessages },
    },
    async (request, reply) => {
      try {
        await limiter.consume(request.ip);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        const seconds = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
        throw new HttpError(429, `Too many reports from this address; try again in ${seconds} s.`, {
          'retry-after': String(seconds),
        });
      }
      const report = request.body;
      const id = randomBytes(9).toString('base64url');
      await db
        .insertInto('reports')
        .values({
          id,
          receivedAt: new Date(now()),
          kind: report.kind,
          buildId: report.buildId,
          routeName: report.route.name,
          path: report.route.path,
          errorName: report.error?.name ?? null,
          errorMessage: report.error?.message ?? null,
          errorStatus: report.error?.status ?? null,
          body: JSON.stringify(report),
        })
        .execute();
      return reply.code(201).send({ id });
    },
  );

  const { readToken } = config;
  if (readToken !== null) {
    app.get<{ Querystring: { id?: string; limit?: string } }>(
      '/reports',
      {
        schema: {
          querystring: {
            type: 'object',
            additionalProperties: false,
            properties: {
              id: { type: 'string', maxLength: 32 },
              limit: { type: 'string', pattern: '^[1-9][0-9]{0,4}$' },
            },
          },
        },
      },
      async (request) => {
        if (!hasToken(request, readToken)) {
          throw new HttpError(401, 'Reading reports needs the server’s REPORTS_TOKEN as a bearer token.', {
            'www-authenticate': 'Bearer',
          });
        }
        const limit = Math.min(Number(request.query.limit ?? 200), config.maxCount);
        return { reports: await listReports(db, { limit, id: request.query.id }) };
      },
    );
  }

  return { prune: () => pruneReports(db, config, now) };
}

function hasToken(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Deletes reports past the age limit and beyond the count limit (the oldest first); returns how many. */
export async function pruneReports(
  db: Kysely<Database>,
  config: Pick<ReportsConfig, 'maxAgeDays' | 'maxCount'>,
  now: () => number,
): Promise<number> {
  const cutoff = new Date(now() - config.maxAgeDays * 86_400_000);
  const old = await db.deleteFrom('reports').where('receivedAt', '<', cutoff).executeTakeFirst();
  const keep = db
    .selectFrom('reports')
    .select('id')
    .orderBy('receivedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(config.maxCount);
  const extra = await db.deleteFrom('reports').where('id', 'not in', keep).executeTakeFirst();
  return Number(old.numDeletedRows) + Number(extra.numDeletedRows);
}

/** The newest reports first (or the one with `id`), as stored. */
export async function listReports(
  db: Kysely<Database>,
  options: { limit: number; id?: string | undefined },
): Promise<StoredReport[]> {
  let query = db
    .selectFrom('reports')
    .select(['id', 'receivedAt', 'body'])
    .orderBy('receivedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit);
  if (options.id !== undefined) query = query.where('id', '=', options.id);
  const rows = await query.execute();
  return rows.map((row) => ({
    ...(row.body as ReportBody),
    id: row.id,
    receivedAt: row.receivedAt.toISOString(),
  }));
}
