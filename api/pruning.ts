/**
 * The periodic sweep (expired sessions, old rate-limit rows, reports past their limits) in one instance at a
 * time. Every process on a database runs the timer; each round takes a transaction-scoped advisory lock first,
 * and a process that finds it held skips the round: another is sweeping the same rows, and a second sweep
 * would only contend with it. The lock ends with the transaction, so a process that dies mid-sweep holds
 * nothing. On PGlite one process owns the database, so the lock is always free and the round just runs.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './database/schema.ts';

/** The advisory lock's key: any bigint no other part of the application uses ("campaign-web prune"). */
export const PRUNE_LOCK_KEY = 0x63_77_70_72_75_6e_65n;

/** A sweep over the transaction it is given, so its deletes run inside the lock. */
export type Sweep = (db: Kysely<Database>) => Promise<unknown>;

/** Runs `sweeps` one after another under the lock; false when another instance holds it (nothing ran). */
export async function pruneInOneInstance(db: Kysely<Database>, sweeps: readonly Sweep[]): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${PRUNE_LOCK_KEY.toString()}::bigint) as locked`.execute(trx);
    if (!rows[0]?.locked) return false;
    for (const sweep of sweeps) await sweep(trx);
    return true;
  });
}
