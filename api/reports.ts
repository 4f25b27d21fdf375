/**
 * Reports from the browser: errors the visitor was shown and samples of web vitals (src/platform/reporter.ts
 * sends them). POST /api/reports stores one; GET /api/reports lists them for `npm run reports` and
 * `npm run replay` when the server holds the embedded database, and only with REPORTS_TOKEN.
 *
 * The trust boundary (docs/reports.md): anyone can send a report, so a report is a stranger's text. It is refused
 * (400) unless it looks like what the app's reporter sends: no control, line-separator or bidirectional character
 * in what it names (core/untrustedText.ts), a build id of the app's own shape, nesting at most MAX_JSON_DEPTH
 * deep, text PostgreSQL can store, numbers a browser can measure, a time near the server's clock, and `error` or
 * `vitals` as its kind says, never both. The route lives inside the API plugin, so its same-origin check,
 * JSON-only parsing and clear 400s apply; its body limit is 16 KiB (413 above). Each client address may send
 * `perAddress` reports per window and `vitalsPerRoute` vitals samples per route per vitals window (429 with
 * Retry-After), counted in the database so every server process shares the count; the address is never stored.
 * The table holds at most `maxCount` reports at any time: each insert drops the oldest beyond it.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Kysely, sql } from 'kysely';
import {
  BUILD_ID_PATTERN,
  SAFE_TEXT_PATTERN,
  UNSAFE_TEXT_CLASS,
  visibleText,
} from '../core/untrustedText.ts';
import type { Database } from './database/schema.ts';
import { type FieldMessages, HttpError } from './errors.ts';
import { findUnstorableText, jsonDepthExceeds, MAX_JSON_DEPTH } from './jsonBody.ts';
import { type DatabaseLimit, databaseLimit, digestKey, RateLimited } from './rateLimits.ts';
import { errorBody } from './schemas.ts';
import { bearerToken, sameSecret } from './secrets.ts';
import type { ReportBody, StoredReport } from './types.ts';

export interface ReportsConfig {
  /** Reports kept at most: an insert beyond it drops the oldest. */
  maxCount: number;
  /** Reports older than this many days go at the next pruning. */
  maxAgeDays: number;
  /** Reports one client address may send per window. */
  perAddress: number;
  windowSeconds: number;
  /** Vitals samples one client address may send for one route per vitals window. */
  vitalsPerRoute: number;
  vitalsWindowSeconds: number;
  bodyLimitBytes: number;
  /** Bearer token that opens GET /api/reports; null keeps that route closed. */
  readToken: string | null;
}

export const REPORT_DEFAULTS = {
  maxCount: 10_000,
  maxAgeDays: 30,
  perAddress: 30,
  windowSeconds: 60,
  // A page view sends at most one sample; one in ten views is sampled (src/config.ts).
  vitalsPerRoute: 3,
  vitalsWindowSeconds: 600,
  bodyLimitBytes: 16 * 1024,
  maxEvents: 50,
  /** How far a report's time may be from the server's clock: a visitor's clock can be wrong by days. */
  maxClockSkewDays: 7,
  /** Wrong read tokens an address may send per window before it is refused (429). */
  tokenGuesses: 10,
  tokenWindowSeconds: 900,
} as const;

/**
 * What a browser can measure, in the unit web-vitals reports: LCP, FCP and TTFB are cut off by the page's
 * lifetime in practice (2 minutes is generous), INP by an interaction's, CLS is a unitless sum.
 */
export const VITAL_MAXIMUM = { LCP: 120_000, FCP: 120_000, TTFB: 120_000, INP: 60_000, CLS: 100 } as const;

/** Text a report names: bounded, and nothing a browser would not send (core/untrustedText.ts). */
const safeText = (maxLength: number) => ({ type: 'string', maxLength, pattern: SAFE_TEXT_PATTERN }) as const;

const vitalRange = (names: readonly string[], maximum: number) => ({
  if: { properties: { name: { enum: names } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords; this object is never awaited.
  then: { properties: { value: { type: 'number', maximum } } },
});

/** The report as the browser sends it (ReportBody in ../types.ts). */
export const reportBodySchema = {
  type: 'object',
  required: ['kind', 'buildId', 'route', 'state', 'events', 'eventsDropped', 'boot', 'time'],
  additionalProperties: false,
  $defs: {
    // A machine's state value: a state's name, or an object of regions' values.
    stateValue: {
      anyOf: [
        safeText(120),
        {
          type: 'object',
          maxProperties: 16,
          propertyNames: safeText(120),
          additionalProperties: { $ref: '#/$defs/stateValue' },
        },
      ],
    },
  },
  properties: {
    kind: { type: 'string', enum: ['error', 'vitals'] },
    buildId: { type: 'string', minLength: 1, maxLength: 64, pattern: BUILD_ID_PATTERN },
    route: {
      type: 'object',
      required: ['name', 'path'],
      additionalProperties: false,
      properties: {
        name: { type: ['string', 'null'], maxLength: 64, pattern: SAFE_TEXT_PATTERN },
        path: { type: 'string', maxLength: 2048, pattern: `^/[^?#${UNSAFE_TEXT_CLASS}]*$` },
      },
    },
    state: { $ref: '#/$defs/stateValue' },
    events: {
      type: 'array',
      maxItems: REPORT_DEFAULTS.maxEvents,
      items: {
        type: 'object',
        required: ['type'],
        maxProperties: 8,
        properties: { type: { ...safeText(160), minLength: 1 } },
      },
    },
    eventsDropped: { type: 'integer', minimum: 0, maximum: 1_000_000 },
    boot: {
      type: ['object', 'null'],
      required: ['path', 'title'],
      additionalProperties: false,
      properties: {
        path: { type: 'string', maxLength: 2048, pattern: `^/[^?#${UNSAFE_TEXT_CLASS}]*$` },
        title: { type: ['string', 'null'], maxLength: 300, pattern: SAFE_TEXT_PATTERN },
      },
    },
    error: {
      type: 'object',
      required: ['name', 'message', 'status'],
      additionalProperties: false,
      properties: {
        name: safeText(200),
        message: safeText(2000),
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
          value: { type: 'number', minimum: 0 },
          rating: { type: 'string', enum: ['good', 'needs-improvement', 'poor'] },
          attribution: {
            type: 'object',
            maxProperties: 8,
            propertyNames: safeText(64),
            additionalProperties: {
              anyOf: [safeText(300), { type: 'number', minimum: -1e9, maximum: 1e9 }],
            },
          },
        },
        allOf: [
          vitalRange(['LCP', 'FCP', 'TTFB'], VITAL_MAXIMUM.LCP),
          vitalRange(['INP'], VITAL_MAXIMUM.INP),
          vitalRange(['CLS'], VITAL_MAXIMUM.CLS),
        ],
      },
    },
    time: { type: 'integer', minimum: 0, maximum: 8.64e15 },
  },
  // Each kind carries its own detail and not the other's.
  allOf: [
    {
      if: { properties: { kind: { const: 'error' } } },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keywords; this object is never awaited.
      then: { required: ['error'], properties: { vitals: false } },
    },
    {
      if: { properties: { kind: { const: 'vitals' } } },
      // biome-ignore lint/suspicious/noThenProperty: as above.
      then: { required: ['vitals'], properties: { error: false } },
    },
  ],
} as const;

const NOT_PLAIN = 'must be plain text: no control, line-separator or bidirectional characters';

const reportMessages: FieldMessages = {
  buildId: {
    pattern: 'The build id must be one the app makes (base-36 time, a dash, 8 hex digits; or "dev").',
  },
  'route.name': { pattern: `The route name ${NOT_PLAIN}.` },
  'route.path': {
    pattern: `The route path must be a path starting with / with no query string or fragment, and ${NOT_PLAIN}.`,
  },
  'boot.path': {
    pattern: `The boot path must be a path starting with / with no query string or fragment, and ${NOT_PLAIN}.`,
  },
  'boot.title': { pattern: `The boot title ${NOT_PLAIN}.` },
  'error.name': { pattern: `The error's name ${NOT_PLAIN}.` },
  'error.message': { pattern: `The error's message ${NOT_PLAIN}.` },
  'events.*.type': { pattern: `An event's type ${NOT_PLAIN}.` },
  state: {
    '*': `The state must be a state value: names of at most 120 characters, nested objects of them, and ${NOT_PLAIN}.`,
  },
  events: { maxItems: `A report holds at most ${REPORT_DEFAULTS.maxEvents} events.` },
  error: {
    required: 'An error report must say what the error was ("error").',
    'false schema': 'Only an error report carries an error ("error").',
  },
  vitals: {
    required: 'A vitals report must hold at least one measurement ("vitals").',
    'false schema': 'Only a vitals report carries measurements ("vitals").',
  },
  'vitals.*.value': {
    maximum:
      'A measurement is beyond what a browser measures (LCP, FCP and TTFB at most 120 s, INP 60 s, CLS 100).',
  },
  'vitals.*.attribution': { '*': `An attribution holds at most 8 short fields, and ${NOT_PLAIN}.` },
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
  /** The client's address as the limits count it (./clientAddress.ts). */
  addressOf: (request: FastifyRequest) => string;
  log: Pick<Console, 'warn'>;
}

function tooMany(what: string, seconds: number): HttpError {
  return new HttpError(429, `Too many ${what} from this address; try again in ${seconds} s.`, {
    'retry-after': String(seconds),
  });
}

/** Throws a 429 with the wait in Retry-After when `limit` refuses `key`. */
async function take(limit: DatabaseLimit, key: string, what: string): Promise<void> {
  try {
    await limit.consume(key);
  } catch (error) {
    if (error instanceof RateLimited) throw tooMany(what, error.retryAfterSeconds);
    throw error;
  }
}

/**
 * Adds the report routes to the API plugin's own scope (called inside it, so its hooks, parsers and error
 * answers apply). Returns the pruning, which runs with the sessions'.
 */
export function reportRoutes(app: FastifyInstance, options: ReportRoutesOptions) {
  const { db, config, now, addressOf } = options;
  const byAddress = databaseLimit(db, {
    keyPrefix: 'report',
    points: config.perAddress,
    duration: config.windowSeconds,
  });
  const vitalsByRoute = databaseLimit(db, {
    keyPrefix: 'vitals',
    points: config.vitalsPerRoute,
    duration: config.vitalsWindowSeconds,
  });
  const tokenGuesses = databaseLimit(db, {
    keyPrefix: 'token',
    points: REPORT_DEFAULTS.tokenGuesses,
    duration: REPORT_DEFAULTS.tokenWindowSeconds,
  });

  app.post<{ Body: ReportBody }>(
    '/reports',
    {
      bodyLimit: config.bodyLimitBytes,
      schema: { body: reportBodySchema, response: storedResponse },
      config: { messages: reportMessages },
      // Before validation: text PostgreSQL cannot store, anywhere in the report (event payloads included).
      preValidation: async (request) => {
        const at = findUnstorableText(request.body);
        if (at !== undefined) {
          throw new HttpError(
            400,
            `The report holds text that is not well-formed Unicode or holds a NUL character (at "${at}").`,
          );
        }
      },
    },
    async (request, reply) => {
      const report = request.body;
      const skewDays = Math.abs(report.time - now()) / 86_400_000;
      if (skewDays > REPORT_DEFAULTS.maxClockSkewDays) {
        throw new HttpError(
          400,
          `The report's time is more than ${REPORT_DEFAULTS.maxClockSkewDays} days from the server's clock.`,
        );
      }
      const address = addressOf(request);
      await take(byAddress, address, 'reports');
      if (report.kind === 'vitals') {
        await take(vitalsByRoute, digestKey(address, report.route.path), 'vitals samples for this page');
      }
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
      // The table never holds more than maxCount reports, whatever arrives between prunings.
      await dropBeyond(db, config.maxCount);
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
        const address = addressOf(request);
        // Past the limit of wrong tokens an address is refused before its token is looked at.
        const wait = await tokenGuesses.waitSeconds(address);
        if (wait > 0) throw tooMany('wrong tokens', wait);
        if (!sameSecret(bearerToken(request.headers.authorization), readToken)) {
          await tokenGuesses.consume(address).catch((error: unknown) => {
            if (!(error instanceof RateLimited)) throw error;
          });
          throw new HttpError(401, 'Reading reports needs the server’s REPORTS_TOKEN as a bearer token.', {
            'www-authenticate': 'Bearer',
          });
        }
        const limit = Math.min(Number(request.query.limit ?? 200), config.maxCount);
        return {
          reports: await listReports(db, { limit, id: request.query.id }, options.log),
        };
      },
    );
  }

  // `on`: a transaction to run in (./pruning.ts).
  return { prune: (on: Kysely<Database> = db) => pruneReports(on, config, now) };
}

/** Deletes all but the newest `keep` reports; returns how many went. */
async function dropBeyond(db: Kysely<Database>, keep: number): Promise<number> {
  const newest = db
    .selectFrom('reports')
    .select('id')
    .orderBy('receivedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(keep);
  const extra = await db.deleteFrom('reports').where('id', 'not in', newest).executeTakeFirst();
  return Number(extra.numDeletedRows);
}

/** Deletes reports past the age limit and beyond the count limit (the oldest first); returns how many. */
export async function pruneReports(
  db: Kysely<Database>,
  config: Pick<ReportsConfig, 'maxAgeDays' | 'maxCount'>,
  now: () => number,
): Promise<number> {
  const cutoff = new Date(now() - config.maxAgeDays * 86_400_000);
  const old = await db.deleteFrom('reports').where('receivedAt', '<', cutoff).executeTakeFirst();
  return Number(old.numDeletedRows) + (await dropBeyond(db, config.maxCount));
}

/**
 * The newest reports first (or the one with `id`), exactly as the browser sent them: each body is read as text
 * and parsed here, so no plugin renames a key or walks its nesting. A row that is not a report this API would
 * accept in shape (unparsable, nested deeper than MAX_JSON_DEPTH, not an object: written to the table by
 * something else) is skipped with one warning line naming its id, never fails the listing.
 */
export async function listReports(
  db: Kysely<Database>,
  options: { limit: number; id?: string | undefined },
  log: Pick<Console, 'warn'> = console,
): Promise<StoredReport[]> {
  let query = db
    .selectFrom('reports')
    .select(['id', 'receivedAt', sql<string>`body::text`.as('bodyText')])
    .orderBy('receivedAt', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit);
  if (options.id !== undefined) query = query.where('id', '=', options.id);
  const rows = await query.execute();
  const reports: StoredReport[] = [];
  for (const row of rows) {
    const body = parseStoredBody(row.bodyText);
    if (body === undefined) {
      log.warn(`[demo-api] report ${visibleText(row.id)} skipped: its stored body is not a report.`);
      continue;
    }
    reports.push({ ...body, id: row.id, receivedAt: row.receivedAt.toISOString() });
  }
  return reports;
}

function parseStoredBody(text: string): ReportBody | undefined {
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return undefined;
  try {
    const body: unknown = JSON.parse(text);
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as ReportBody)
      : undefined;
  } catch {
    return undefined;
  }
}
