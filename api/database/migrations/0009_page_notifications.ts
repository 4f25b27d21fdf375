import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations (see 0001_initial.ts).
type AnyDb = Kysely<any>;

/** The channel every instance of the server LISTENs on (server/render/listener.ts). */
export const PAGE_CHANNEL = 'page_changes';

/**
 * The tables a rendered page reads, each with the column that names the campaign a row belongs to. A write to
 * one of them tells every instance which pages to drop from its cache. A table the pages start reading (pledges,
 * follows) is one more line here, in a migration of its own that calls `watchTable`.
 */
export const WATCHED_TABLES: readonly { readonly table: string; readonly campaignColumn: string }[] = [
  { table: 'campaigns', campaignColumn: 'id' },
];

/**
 * Rendered pages are cached by every server instance (server/render/cache.ts) and must never be stale after a
 * write. A row trigger on each watched table sends `pg_notify('page_changes', '{"campaign":1,"list":true}')`
 * when the transaction commits (never for one that rolls back): `campaign` names the campaign whose pages
 * changed, `list` says whether the lists of campaigns changed too (a row added or removed, or a campaign's
 * status, which decides whether lists show it). Identical notifications of one transaction arrive once.
 * Also the index that serves the landing page's keyset list, newest first within a status
 * (api/campaignList.ts), so that any page of it costs the same.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create function notify_page_change() returns trigger language plpgsql as $$
    declare
      row_data jsonb;
      old_data jsonb;
      listed boolean;
    begin
      row_data := to_jsonb(coalesce(new, old));
      listed := tg_op <> 'UPDATE';
      if tg_op = 'UPDATE' then
        old_data := to_jsonb(old);
        listed := (row_data -> 'status') is distinct from (old_data -> 'status')
          or (row_data -> 'featured') is distinct from (old_data -> 'featured');
        if (old_data ->> tg_argv[0]) is distinct from (row_data ->> tg_argv[0]) then
          perform pg_notify(${sql.lit(PAGE_CHANNEL)},
            json_build_object('campaign', (old_data ->> tg_argv[0])::bigint, 'list', true)::text);
        end if;
      end if;
      perform pg_notify(${sql.lit(PAGE_CHANNEL)},
        json_build_object('campaign', (row_data ->> tg_argv[0])::bigint, 'list', listed)::text);
      return null;
    end
  $$`.execute(db);
  for (const { table, campaignColumn } of WATCHED_TABLES) await watchTable(db, table, campaignColumn);
  await sql`create index campaigns_status_id on campaigns (status, id desc)`.execute(db);
}

/** The trigger that makes writes to `table` drop the cached pages of the campaign `campaignColumn` names. */
export async function watchTable(db: AnyDb, table: string, campaignColumn: string): Promise<void> {
  await sql`create trigger ${sql.id(`${table}_page_changes`)}
    after insert or update or delete on ${sql.id(table)}
    for each row execute function notify_page_change(${sql.lit(campaignColumn)})`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`drop index campaigns_status_id`.execute(db);
  for (const { table } of WATCHED_TABLES)
    await sql`drop trigger ${sql.id(`${table}_page_changes`)} on ${sql.id(table)}`.execute(db);
  await sql`drop function notify_page_change()`.execute(db);
}
