import type { Migration } from 'kysely/migration';
import * as initial from './0001_initial.ts';
import * as seed from './0002_seed.ts';
import * as reports from './0003_reports.ts';
import * as rateLimits from './0004_rate_limits.ts';
import * as argon2idSeedHashes from './0005_argon2id_seed_hashes.ts';
import * as requestLimits from './0006_request_limits.ts';
import * as accounts from './0007_accounts.ts';
import * as pageNotifications from './0009_page_notifications.ts';

/**
 * Every migration, by name; Kysely runs them in name order and records each in `kysely_migration`.
 * Listed here rather than read from the folder so that a bundled server carries them too.
 * Never edit or rename one that has shipped: add the next number instead (0002_seed was emptied once, on
 * purpose: it wrote demo data into every database). Schema only: the demo data is ../demoData.ts's step.
 */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_seed': seed,
  '0003_reports': reports,
  '0004_rate_limits': rateLimits,
  '0005_argon2id_seed_hashes': argon2idSeedHashes,
  '0006_request_limits': requestLimits,
  '0007_accounts': accounts,
  '0009_page_notifications': pageNotifications,
};
