import { verify } from '@node-rs/argon2';
import type { Kysely, Transaction } from 'kysely';
import { createAccount } from '../accountRules.ts';
import { HttpError } from '../errors.ts';
import seed from '../fixtures/seed.json' with { type: 'json' };
import type { Database } from './schema.ts';

// biome-ignore lint/suspicious/noExplicitAny: written with the tables' SQL names, like the migrations, so that it does not depend on the plugins of the caller's Kysely.
type AnyDb = Kysely<any>;

/**
 * Writes the demo accounts and campaigns of api/fixtures/seed.json (whose passwords the README publishes) into a
 * database that has no accounts yet, and says whether it did. Run after migrating, and only when DEMO_DATA asks
 * (the embedded database's default; never a DATABASE_URL one unless DEMO_DATA=1). The accounts are made by
 * createAccount (../accounts.ts), the code a person's sign-up runs: the same checks, normalisation and argon2id
 * hash. Idempotent: a database with any account is left alone, so a demo campaign someone deleted stays deleted,
 * and processes starting together on one PostgreSQL make the accounts once (the email's unique index refuses the
 * second, and its transaction writes nothing). One transaction: accounts never without their campaigns.
 */
export async function writeDemoData(db: Kysely<Database>): Promise<boolean> {
  try {
    return await db.transaction().execute(async (trx) => {
      const someone = await trx.selectFrom('users').select('id').limit(1).executeTakeFirst();
      if (someone) return false;
      await writeDemoAccounts(trx);
      await (trx.withoutPlugins() as unknown as AnyDb)
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
  } catch (error) {
    // Another process wrote them first (its accounts' emails are taken): nothing to do.
    if (error instanceof HttpError && error.statusCode === 409) return false;
    throw error;
  }
}

/** The seed's accounts, through the sign-up's own createAccount, with the seed's ids (its campaigns name them). */
export async function writeDemoAccounts(trx: Transaction<Database>): Promise<void> {
  for (const user of seed.users) {
    await createAccount(trx, {
      id: user.id,
      email: user.email,
      displayName: user.displayName,
      password: user.password,
    });
  }
}

/** The demo accounts' passwords, as the README publishes them beside the emails. */
export const PUBLISHED_PASSWORDS: readonly string[] = seed.users.map((user) => user.password);

/** An account anyone can sign in to: it still takes a password the README publishes. */
export interface PublishedAccount {
  id: string;
  email: string;
}

/**
 * The accounts that still take a published password: the seed's accounts (by id or email) and any account
 * holding one of the seed's hashes, whose stored hash is the seed's own or verifies one of the published
 * passwords (a sign-in may have hashed it again at other parameters). An account whose password was changed is
 * no longer published and is not listed. One query, and an argon2id verify for each candidate whose hash is not
 * the seed's: nothing on a database without demo accounts.
 */
export async function publishedAccounts(db: AnyDb): Promise<PublishedAccount[]> {
  const raw = db.withoutPlugins();
  const seedHashes = seed.users.map((user) => user.passwordHash);
  const candidates: { id: string; email: string; password_hash: string }[] = await raw
    .selectFrom('users')
    .select(['id', 'email', 'password_hash'])
    .where((eb) =>
      eb.or([
        eb(
          'id',
          'in',
          seed.users.map((user) => user.id),
        ),
        eb(
          'email_key',
          'in',
          seed.users.map((user) => user.email.toLowerCase()),
        ),
        eb('password_hash', 'in', seedHashes),
      ]),
    )
    .orderBy('email')
    .execute();
  const published: PublishedAccount[] = [];
  for (const candidate of candidates) {
    if (seedHashes.includes(candidate.password_hash) || (await takesPublished(candidate.password_hash)))
      published.push({ id: candidate.id, email: candidate.email });
  }
  return published;
}

async function takesPublished(hash: string): Promise<boolean> {
  for (const password of PUBLISHED_PASSWORDS) {
    // A hash that is not argon2id matches nothing here (the server verifies nothing else either).
    if (await verify(hash, password).catch(() => false)) return true;
  }
  return false;
}

/** What removeDemoData removed. */
export interface RemovedDemoData {
  accounts: string[];
  campaigns: number;
}

/**
 * `npm run db:migrate -- --remove-demo-data`: deletes the accounts that still take a published password (see
 * publishedAccounts), their sessions and the campaigns they own, in one transaction. Accounts whose password
 * was changed, and everything else, stay.
 */
export async function removeDemoData(db: AnyDb): Promise<RemovedDemoData> {
  return db
    .withoutPlugins()
    .transaction()
    .execute(async (trx) => {
      const accounts = await publishedAccounts(trx);
      if (accounts.length === 0) return { accounts: [], campaigns: 0 };
      const ids = accounts.map((account) => account.id);
      const campaigns = await trx.deleteFrom('campaigns').where('owner_id', 'in', ids).executeTakeFirst();
      // Their sessions go with them (on delete cascade).
      await trx.deleteFrom('users').where('id', 'in', ids).execute();
      return {
        accounts: accounts.map((account) => account.email),
        campaigns: Number(campaigns.numDeletedRows),
      };
    });
}
