import { type Kysely, sql } from 'kysely';

// Migrations are frozen history: they must not import the current schema types, which will move on.
// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations, for the reason above.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('display_name', 'text', (col) => col.notNull())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // Emails are matched case-insensitively; the index makes that both unique and fast.
  await db.schema
    .createIndex('users_email_lower_key')
    .on('users')
    .unique()
    .expression(sql`lower(email)`)
    .execute();

  await db.schema
    .createTable('campaigns')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('title', 'text', (col) => col.notNull())
    .addColumn('summary', 'text', (col) => col.notNull())
    .addColumn('description', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) =>
      col.notNull().check(sql`status in ('draft', 'active', 'paused', 'completed')`),
    )
    .addColumn('goal', 'integer', (col) => col.notNull().check(sql`goal >= 0`))
    .addColumn('raised', 'integer', (col) => col.notNull().check(sql`raised >= 0`))
    .addColumn('owner_id', 'text', (col) => col.notNull().references('users.id'))
    .addColumn('featured', 'boolean', (col) => col.notNull().defaultTo(false))
    .addColumn('image', 'text')
    .addColumn('starts_on', 'date', (col) => col.notNull())
    .addColumn('ends_on', 'date', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('campaigns_owner_idx').on('campaigns').columns(['owner_id', 'id']).execute();
  // The public list: everything but drafts, featured first.
  await db.schema
    .createIndex('campaigns_public_idx')
    .on('campaigns')
    .columns(['featured desc', 'id'])
    .where(sql.ref('status'), '<>', 'draft')
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (col) => col.primaryKey())
    .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull())
    .addColumn('last_seen_at', 'timestamptz', (col) => col.notNull())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('sessions_user_idx')
    .on('sessions')
    .columns(['user_id', 'created_at'])
    .execute();
  await db.schema.createIndex('sessions_expires_idx').on('sessions').column('expires_at').execute();
  await db.schema.createIndex('sessions_last_seen_idx').on('sessions').column('last_seen_at').execute();

  // rate-limiter-flexible's Postgres store, shared by every server process on the database.
  await db.schema
    .createTable('sign_in_limits')
    .addColumn('key', 'varchar(255)', (col) => col.primaryKey())
    .addColumn('points', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of ['sign_in_limits', 'sessions', 'campaigns', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
