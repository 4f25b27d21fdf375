import type { Kysely } from 'kysely';
import seed from '../../fixtures/seed.json' with { type: 'json' };

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen history and must not use today's schema types.
type AnyDb = Kysely<any>;

/**
 * The demo accounts and campaigns, loaded once: the migrator records that this ran, and `on conflict do
 * nothing` keeps it harmless even on a database where someone added the same rows by hand. The demo
 * accounts keep their old scrypt hashes on purpose; the first sign-in upgrades each to argon2id.
 */
export async function up(db: AnyDb): Promise<void> {
  await db
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
  await db
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
        image: 'image' in c && typeof c.image === 'string' ? c.image : null,
        starts_on: c.startsOn,
        ends_on: c.endsOn,
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db
    .deleteFrom('campaigns')
    .where(
      'id',
      'in',
      seed.campaigns.map((c) => c.id),
    )
    .execute();
  await db
    .deleteFrom('users')
    .where(
      'id',
      'in',
      seed.users.map((u) => u.id),
    )
    .execute();
}
