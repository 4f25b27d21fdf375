import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations (see 0001_initial.ts).
type AnyDb = Kysely<any>;

/**
 * Empty on purpose. Migrations are schema only: the demo accounts and campaigns are written by their own
 * step after migrating, and only when asked for (../demoData.ts, DEMO_DATA), never into a production
 * database. This migration once wrote them, and keeps its name in the list because it has shipped: databases that ran it record it, and Kysely refuses a database whose recorded
 * migrations are missing. Those databases keep the rows it wrote (0005 replaced their scrypt hashes).
 */
export async function up(_db: AnyDb): Promise<void> {}

export async function down(_db: AnyDb): Promise<void> {}
