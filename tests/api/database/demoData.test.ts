// @vitest-environment node
// The demo data's own functions (api/database/demoData.ts) over a migrated database: they take only the seed's
// accounts, and each write is awaited, so a write the database refuses fails the whole step (one transaction:
// accounts never without their campaigns) instead of being reported as done.
import { hash } from '@node-rs/argon2';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { publishedAccounts, removeDemoData, writeDemoData } from '../../../api/database/demoData';
import { OWASP_ARGON2ID } from '../../../api/passwords';
import { pinRow, resetDatabase, unpinRows, useTestDatabase } from '../../support/apiHarness';

describe('the demo data', { timeout: 60_000 }, () => {
  const database = useTestDatabase('pglite');
  const db = () => database().db;
  const emails = async () =>
    (await db().selectFrom('users').select('email').orderBy('email').execute()).map((row) => row.email);
  const campaignOwners = async () =>
    (await db().selectFrom('campaigns').select('ownerId').distinct().orderBy('ownerId').execute()).map(
      (row) => row.ownerId,
    );
  /** An account outside the seed, with a hash of `password` made now (not one of the seed's). */
  const addAccount = async (id: string, password: string) =>
    sql`insert into users (id, email, email_key, display_name, password_hash)
        values (${id}, ${`${id}@example.org`}, ${`${id}@example.org`}, ${id}, ${await hash(password, OWASP_ARGON2ID)})`.execute(
      db(),
    );
  beforeEach(async () => {
    await resetDatabase(database());
  });
  afterEach(async () => {
    await unpinRows(db());
    await sql`alter table users drop constraint if exists refuse_demo`.execute(db());
    await sql`alter table campaigns drop constraint if exists refuse_first`.execute(db());
  });

  it('writes nothing when an account is refused, and fails', async () => {
    await sql`truncate users cascade`.execute(db());
    await sql`alter table users add constraint refuse_demo check (email <> 'demo@example.com')`.execute(db());
    await expect(writeDemoData(db())).rejects.toThrow('refuse_demo');
    expect(await emails()).toEqual([]);
  });

  it('writes no account when a campaign is refused, and fails', async () => {
    await sql`truncate users cascade`.execute(db());
    await sql`alter table campaigns add constraint refuse_first check (id <> 1)`.execute(db());
    await expect(writeDemoData(db())).rejects.toThrow('refuse_first');
    expect(await emails()).toEqual([]);
  });

  it("lists the seed's accounts only: another account that happens to use a published password is its own", async () => {
    await addAccount('u3', 'demo-password');
    expect((await publishedAccounts(db())).map((account) => account.email)).toEqual([
      'demo@example.com',
      'sam@example.com',
    ]);
  });

  it('no longer lists a seed account whose password was changed, and still lists one hashed again', async () => {
    await sql`update users set password_hash = ${await hash('a new password', OWASP_ARGON2ID)} where id = 'u1'`.execute(
      db(),
    );
    await sql`update users set password_hash = ${await hash('sam-password', { ...OWASP_ARGON2ID, timeCost: 3 })} where id = 'u2'`.execute(
      db(),
    );
    expect((await publishedAccounts(db())).map((account) => account.email)).toEqual(['sam@example.com']);
  });

  it('removes the published accounts and their campaigns, and nothing of anyone else', async () => {
    await addAccount('u3', 'a password of their own');
    await sql`update campaigns set owner_id = 'u3' where id = 1`.execute(db());
    const removed = await removeDemoData(db());
    expect(removed.accounts).toEqual(['demo@example.com', 'sam@example.com']);
    expect(await emails()).toEqual(['u3@example.org']);
    expect(await campaignOwners()).toEqual(['u3']);
    expect(removed.campaigns).toBeGreaterThan(0);
  });

  it('removes nothing when a published account cannot be deleted, and fails', async () => {
    await pinRow(db(), 'users', 'id', 'u1');
    await expect(removeDemoData(db())).rejects.toThrow('pinned_users');
    expect(await emails()).toEqual(['demo@example.com', 'sam@example.com']);
  });

  it('removes nothing when one of their campaigns cannot be deleted, and fails', async () => {
    await pinRow(db(), 'campaigns', 'id', 1);
    await expect(removeDemoData(db())).rejects.toThrow('pinned_campaigns');
    expect(await emails()).toEqual(['demo@example.com', 'sam@example.com']);
  });
});
