import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations (see 0001_initial.ts).
type AnyDb = Kysely<any>;

/**
 * The production server's per-address flood limits (server/plugins/rateLimit.ts: requests to /api/*, new image
 * variants) move from each process's memory into the database, so that every instance on one PostgreSQL shares
 * them. They are counted on every API request, so the table is UNLOGGED: its writes skip the WAL, and
 * a commit that touched nothing else waits for no flush to disk (a logged upsert with fsync on cost two to three
 * times as much on PGlite). After a crash PostgreSQL empties it, which for one-minute flood counts only means a
 * fresh minute. The sign-in and report limits stay in `rate_limits`, which is logged: they must outlive a crash.
 * rate-limiter-flexible's layout, as `rate_limits` has it.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create unlogged table request_limits (
    key varchar(255) primary key,
    points integer not null default 0,
    expire bigint
  )`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('request_limits').execute();
}
