import type { Kysely } from 'kysely';
import seed from '../fixtures/seed.json' with { type: 'json' };

// biome-ignore lint/suspicious/noExplicitAny: written with the tables' SQL names, like the migrations, so that it does not depend on the plugins of the caller's Kysely.
type AnyDb = Kysely<any>;

/**
 * Writes the demo accounts and campaigns of api/fixtures/seed.json (whose passwords the README publishes) into a
 * database that has no accounts yet, and says whether it did. Run after migrating, and only when DEMO_DATA asks
 * (the embedded database's default; never a DATABASE_URL one unless DEMO_DATA=1). Idempotent: a database with any
 * account is left alone, so a demo campaign someone deleted stays deleted, and processes starting together on one
 * PostgreSQL insert with `on conflict do nothing`. One transaction: accounts never without their campaigns.
 */
export async function writeDemoData(db: AnyDb): Promise<boolean> {
  const raw = db.withoutPlugins();
  return raw.transaction().execute(async (trx) => {
    const someone = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (someone) return false;
    await trx
      .insertInto('users')
      .values(
        seed.users.map((user) => ({
          id: user.id,
          email: user.email,
          display_name: user.displayName,
          password_hash: user.passwordHash,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
    await trx
      .insertInto('campaigns')
      .values(
        seed.campaigns.map((c) => ({
          id: c.id,
          title: c.title,
          summary: c.summary,
          description: c.description,
          status: c.status,
          goal: c.goal,
          raised: c.raised,
          owner_id: c.ownerId,
          featured: c.featured,
          image: c.image,
          starts_on: c.startsOn,
          ends_on: c.endsOn,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
    return true;
  });
}
