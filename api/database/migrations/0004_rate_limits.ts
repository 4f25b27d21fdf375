import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations (see 0001_initial.ts).
type AnyDb = Kysely<any>;

/**
 * The rate-limit store (rate-limiter-flexible's layout) now counts more than sign-ins: error reports per client
 * address are limited there too, so that every server process on the database shares one count.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sign_in_limits').renameTo('rate_limits').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('rate_limits').renameTo('sign_in_limits').execute();
}
