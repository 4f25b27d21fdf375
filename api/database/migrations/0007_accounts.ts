import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations (see 0001_initial.ts).
type AnyDb = Kysely<any>;

/**
 * The key an email is unique by: NFKC, then lower case (frozen here; api/accounts.ts's emailKey is the same
 * function for new accounts). PostgreSQL's own lower() depends on the database's locale, and PGlite's is C, which
 * lowers ASCII only: the key is computed in JavaScript, the same way on every database.
 */
const keyOf = (email: string) => email.normalize('NFKC').toLowerCase();

/**
 * People make their own accounts: an email is unique by `email_key`, its NFKC lower-case form, under a unique
 * index, so that two sign-ups of one address at once (or in two spellings, `Ａ@example.com` and `a@example.com`)
 * make one account, the database deciding. The lower(email) index of 0001 goes: the key replaces it.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('email_key', 'text').execute();
  const users: { id: string; email: string }[] = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .execute();
  for (const user of users) {
    await db
      .updateTable('users')
      .set({ email_key: keyOf(user.email) })
      .where('id', '=', user.id)
      .execute();
  }
  await sql`alter table users alter column email_key set not null`.execute(db);
  await db.schema.createIndex('users_email_key').on('users').unique().column('email_key').execute();
  await db.schema.dropIndex('users_email_lower_key').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('users_email_lower_key')
    .on('users')
    .unique()
    .expression(sql`lower(email)`)
    .execute();
  await db.schema.dropIndex('users_email_key').execute();
  await db.schema.alterTable('users').dropColumn('email_key').execute();
}
