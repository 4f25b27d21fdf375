/**
 * Reports from the browser: errors the visitor was shown and samples of web vitals (src/platform/reporter.ts
 * sends them). What a report may hold, how it is stored and how long it is kept; the routes that take and list
 * them (POST and GET /api/reports, their limits and answers) are ./routes/reports.ts.
 *
 * The trust boundary (docs/reports.md): anyone can send a report, so a report is a stranger's text. The schema
 * below refuses it unless it looks like what the app's reporter sends: no control, line-separator or
 * bidirectional character in what it names (core/untrustedText.ts), a build id of the app's own shape, numbers
 * a browser can measure, and `error` or `vitals` as its kind says, never both. The table holds at most `maxCount`
 * reports at any time: each insert drops the oldest beyond it.
 */
import { randomBytes } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import { type Kysely, sql } from 'kysely';
import { visibleText } from '../core/untrustedText.ts';
import type { Database } from './database/schema.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './jsonBody.ts';
import { REPORT_MAX_EVENTS, reportBodySchema } from './reportSchemas.ts';
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

// The schemas live beside the other wire shapes; imported from here as before.
export { REPORT_MAX_EVENTS, reportBodySchema, storedReportSchema, VITAL_MAXIMUM } from './reportSchemas.ts';

export const REPORT_DEFAULTS = {
  maxCount: 10_000,
  maxAgeDays: 30,
  perAddress: 30,
  windowSeconds: 60,
  // A page view sends at most one sample; one in ten views is sampled (src/config.ts).
  vitalsPerRoute: 3,
  vitalsWindowSeconds: 600,
  bodyLimitBytes: 16 * 1024,
  maxEvents: REPORT_MAX_EVENTS,
  /** How far a report's time may be from the server's clock: a visitor's clock can be wrong by days. */
  maxClockSkewDays: 7,
  /** Wrong read tokens an address may send per window before it is refused (429). */
  tokenGuesses: 10,
  tokenWindowSeconds: 900,
} as const;

/**
 * Stores one report (already checked by the route) as received at `receivedAt`, then drops the oldest beyond
 * `maxCount`, so the table never holds more whatever arrives between prunings. Returns its new id.
 */
export async function storeReport(
  db: Kysely<Database>,
  report: ReportBody,
  receivedAt: Date,
  maxCount: number,
): Promise<string> {
  const id = randomBytes(9).toString('base64url');
  await db
    .insertInto('reports')
    .values({
      id,
      receivedAt,
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
  await dropBeyond(db, maxCount);
  return id;
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
 * and parsed here, so no plugin renames a key or walks its nesting. A row that is not a report in shape
 * (unparsable, nested deeper than MAX_JSON_DEPTH, or not matching storedShape: written to the table by something
 * else) is skipped with one warning line naming its id, never fails the listing or a reader of it.
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
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  return storedShape(body) ? body : undefined;
}

/**
 * The intake schema's limits on a stranger's text and sizes: the readers show any text escaped and handle any
 * size, and a limit tightened later must not hide the reports already stored.
 */
const INTAKE_LIMITS = new Set([
  'pattern',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'maxProperties',
  'minimum',
  'maximum',
]);
/** Keywords whose values map names to schemas: a field named `pattern` is not the keyword. */
const SCHEMA_MAPS = new Set(['properties', '$defs']);

/** `schema` without INTAKE_LIMITS, anywhere in it. */
function withoutLimits(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutLimits);
  if (typeof schema !== 'object' || schema === null) return schema;
  const kept = Object.entries(schema).filter(([keyword]) => !INTAKE_LIMITS.has(keyword));
  return Object.fromEntries(
    kept.map(([keyword, value]) => {
      if (SCHEMA_MAPS.has(keyword)) {
        const entries = Object.entries(value as Record<string, unknown>);
        return [keyword, Object.fromEntries(entries.map(([name, inner]) => [name, withoutLimits(inner)]))];
      }
      return [keyword, withoutLimits(value)];
    }),
  );
}

let storedShapeCheck: ValidateFunction<ReportBody> | undefined;
/**
 * Whether a stored body is a report in shape, as the readers (the listing, `npm run reports`, `npm run replay`)
 * rely on: reportBodySchema's fields, types and kinds, without its limits (INTAKE_LIMITS). Compiled on first use.
 * A schema change that old rows no longer match (a new required field) hides them until they are pruned.
 */
function storedShape(body: unknown): body is ReportBody {
  storedShapeCheck ??= new Ajv({ coerceTypes: false, removeAdditional: false }).compile<ReportBody>(
    withoutLimits(reportBodySchema) as object,
  );
  return storedShapeCheck(body);
}

/**
 * What keeps `body` from being a report in shape (as `storedShape` judges it), as the first fault's place and
 * rule (`/route/path must be string`), or null when it is one: a saved file given to `npm run replay`.
 */
export function reportShapeProblem(body: unknown): string | null {
  if (storedShape(body)) return null;
  const [fault] = storedShapeCheck?.errors ?? [];
  return fault ? `${fault.instancePath || '/'} ${fault.message ?? 'does not match'}` : 'not a report';
}
