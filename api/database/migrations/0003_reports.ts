import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations (see 0001_initial.ts).
type AnyDb = Kysely<any>;

/** Error and web-vitals reports from the browser (api/reports.ts). No address, no cookie, no user. */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('reports')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('error', 'vitals')`))
    .addColumn('build_id', 'text', (col) => col.notNull())
    .addColumn('route_name', 'text')
    .addColumn('path', 'text', (col) => col.notNull())
    // Columns for grouping without reading the JSON; the whole report (events, state) is in `body`.
    .addColumn('error_name', 'text')
    .addColumn('error_message', 'text')
    .addColumn('error_status', 'integer')
    .addColumn('body', 'jsonb', (col) => col.notNull())
    .execute();
  // Pruning by age and by count, and the listing, all walk this index.
  await db.schema.createIndex('reports_received_idx').on('reports').columns(['received_at', 'id']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('reports').execute();
}
