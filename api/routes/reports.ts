/**
 * POST /api/reports stores one report; GET /api/reports lists them for `npm run reports` and `npm run replay`
 * when the server holds the embedded database, and only with REPORTS_TOKEN (docs/reports.md).
 *
 * What a report may hold is ../reports.ts; here is how a stranger's report is taken. It is refused (400) unless
 * it matches that schema, nests at most MAX_JSON_DEPTH deep, holds text PostgreSQL can store and a time near the
 * server's clock. The routes live inside the API plugin, so its same-origin check, JSON-only parsing and clear
 * 400s apply; the body limit is 16 KiB (413 above). Each client address may send `perAddress` reports per window
 * and `vitalsPerRoute` vitals samples per route per vitals window (429 with Retry-After), counted in the database
 * so every server process shares the count; the address is never stored.
 */
import { limitKey } from '../clientAddress.ts';
import { type FieldMessages, HttpError } from '../errors.ts';
import { findUnstorableText } from '../jsonBody.ts';
import { type LimitName, securityLine } from '../logSafe.ts';
import { type DatabaseLimit, databaseLimit, digestKey, RateLimited } from '../rateLimits.ts';
import { reportBodySchema, storedReportSchema } from '../reportSchemas.ts';
import { listReports, REPORT_DEFAULTS, storeReport } from '../reports.ts';
import { errorBody } from '../schemas.ts';
import { bearerToken, sameSecret } from '../secrets.ts';
import type { RoutePlugin } from './context.ts';

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

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // A report id's own characters (base64url): nothing else reaches the query (a NUL made it a 500).
    id: { type: 'string', maxLength: 32, pattern: '^[A-Za-z0-9_-]+$' },
    limit: { type: 'string', pattern: '^[1-9][0-9]{0,4}$' },
  },
} as const;

const listResponse = {
  200: {
    type: 'object',
    required: ['reports'],
    additionalProperties: false,
    properties: { reports: { type: 'array', items: storedReportSchema } },
  },
  '4xx': errorBody,
  '5xx': errorBody,
} as const;

function tooMany(what: string, seconds: number): HttpError {
  return new HttpError(429, `Too many ${what} from this address; try again in ${seconds} s.`, {
    'retry-after': String(seconds),
  });
}

/** Throws a 429 with the wait in Retry-After when `limit` refuses `key`, after telling `refused`. */
async function take(limit: DatabaseLimit, key: string, what: string, refused: () => void): Promise<void> {
  try {
    await limit.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimited)) throw error;
    refused();
    throw tooMany(what, error.retryAfterSeconds);
  }
}

/** Their pruning is not here: it runs with the sessions' (../plugin.ts, ../pruning.ts). */
export const reportRoutes: RoutePlugin = async (app, context) => {
  const { db, now } = context;
  const config = context.config.reports;
  const log = { warn: context.log.warn ?? context.log.error };
  // The client's address as the limits count it (../clientAddress.ts).
  const addressOf = (request: { ip: string }) => limitKey(request.ip);
  // One security event per refusal (../logSafe.ts): the address and the limit or token, never the token sent.
  const security = securityLine(context.log);
  const limited = (address: string, limit: LimitName) => () =>
    security({ event: 'rate-limited', address, limit });
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

  app.post(
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
      await take(byAddress, address, 'reports', limited(address, 'reports'));
      if (report.kind === 'vitals') {
        await take(
          vitalsByRoute,
          digestKey(address, report.route.path),
          'vitals samples for this page',
          limited(address, 'vitals'),
        );
      }
      const id = await storeReport(db, report, new Date(now()), config.maxCount);
      return reply.code(201).send({ id });
    },
  );

  const { readToken } = config;
  if (readToken !== null) {
    app.get(
      '/reports',
      {
        schema: { querystring: listQuery, response: listResponse },
        config: {
          messages: { id: { pattern: '"id" must be a report id: letters, digits, "-" and "_" only.' } },
        },
      },
      async (request) => {
        const address = addressOf(request);
        // Past the limit of wrong tokens an address is refused before its token is looked at.
        const wait = await tokenGuesses.waitSeconds(address);
        if (wait > 0) {
          limited(address, 'reports-token')();
          throw tooMany('wrong tokens', wait);
        }
        if (!sameSecret(bearerToken(request.headers.authorization), readToken)) {
          security({ event: 'token.refused', address, token: 'reports' });
          await tokenGuesses.consume(address).catch((error: unknown) => {
            if (!(error instanceof RateLimited)) throw error;
          });
          throw new HttpError(401, 'Reading reports needs the server’s REPORTS_TOKEN as a bearer token.', {
            'www-authenticate': 'Bearer',
          });
        }
        const limit = Math.min(Number(request.query.limit ?? 200), config.maxCount);
        return {
          reports: await listReports(db, { limit, id: request.query.id }, log),
        };
      },
    );
  }
};
