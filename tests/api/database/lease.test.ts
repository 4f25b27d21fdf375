// @vitest-environment node
// What the embedded folder's lease guards, seen from inside one process: a start that finds the lease held waits
// between its attempts as long as open.ts says (a second at most, half a renewal when that is shorter: a lease
// given back is taken within a second), one wait at a time; and `npm run db:migrate` queries the folder only
// while it holds the lease, closing PGlite before giving the lease back. The waits are recorded, not slept: the
// clock (Date only) moves by each wait when the wait ends, so a lease that never goes stale is given up on after
// its stale time plus one renewal, as in real time.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { migrations } from '../../../api/database/migrations/index';
import { type LeaseTiming, migrateDatabase, openDatabase } from '../../../api/database/open';

/** The waits open.ts asks `node:timers/promises` for while a test records them (`waits`); none otherwise. */
const recorder = vi.hoisted(() => ({
  waits: undefined as { ms: number; overlapping: boolean }[] | undefined,
  pending: 0,
}));

vi.mock('node:timers/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:timers/promises')>();
  return {
    ...actual,
    setTimeout: (ms: number, value?: unknown) => {
      const waits = recorder.waits;
      if (waits === undefined) return actual.setTimeout(ms, value);
      // A wait asked for while another is still running means the loop did not wait for the first.
      waits.push({ ms, overlapping: recorder.pending > 0 });
      recorder.pending += 1;
      // Real time enough for a loop that does not wait to come round again (a lock attempt is a mkdir and a stat).
      return actual.setTimeout(100).then(() => {
        recorder.pending -= 1;
        vi.setSystemTime(Date.now() + ms);
        return value;
      });
    },
  };
});

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  recorder.waits = undefined;
  recorder.pending = 0;
  vi.useRealTimers();
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A folder for the database in a fresh temp folder; its lease is `${dir}.lock`. */
async function databaseDir(): Promise<string> {
  const parent = await mkdtemp(path.join(tmpdir(), 'campaign-web-lease-'));
  cleanups.push(() => rm(parent, { recursive: true, force: true }));
  return path.join(parent, 'pglite');
}

const lockOf = (dir: string) => `${dir}.lock`;

/**
 * The waits of a start that finds `dir`'s lease held and never renewed nor stale (its time an hour ahead), until
 * it gives up: the clock is Date's alone, moved by each wait.
 */
async function waitsForAHeldLease(lease: LeaseTiming) {
  const dir = await databaseDir();
  await mkdir(dir);
  // A folder PGlite would refuse, were the lease ever taken: this test must not open a database.
  await writeFile(path.join(dir, 'PG_VERSION'), '99\n');
  await mkdir(lockOf(dir));
  const inAnHour = new Date(Date.now() + 3_600_000);
  await utimes(lockOf(dir), inAnHour, inAnHour);
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  vi.useFakeTimers({ toFake: ['Date'] });
  const waits: { ms: number; overlapping: boolean }[] = [];
  recorder.waits = waits;
  const outcome = await openDatabase(
    { kind: 'pglite', dir },
    { migrate: true, demoData: false, lease, onLeaseLost: () => {} },
  ).then(
    () => 'opened',
    (error: Error) => error.message,
  );
  return { outcome, waits, warnings: warn.mock.calls.length };
}

describe('a start that finds the lease held', { timeout: 60_000 }, () => {
  it('tries again every second when a renewal is longer than two, one wait at a time, then gives up', async () => {
    const { outcome, waits, warnings } = await waitsForAHeldLease({ staleMs: 6000, renewMs: 3000 });
    expect(outcome).toMatch(/ is in use by another server: /);
    expect(warnings).toBe(1);
    // Given up once the clock is past the stale time and a renewal (9 s): the tenth wait's end.
    expect(waits).toEqual(Array.from({ length: 10 }, () => ({ ms: 1000, overlapping: false })));
  });

  it('tries again every half renewal when a renewal is shorter than two seconds', async () => {
    const { outcome, waits } = await waitsForAHeldLease({ staleMs: 2000, renewMs: 1000 });
    expect(outcome).toMatch(/ is in use by another server: /);
    expect(waits).toEqual(Array.from({ length: 7 }, () => ({ ms: 500, overlapping: false })));
  });
});

describe('`npm run db:migrate` (migrateDatabase)', { timeout: 120_000 }, () => {
  it('queries the folder only while it holds the lease, and closes PGlite before giving it back', async () => {
    const dir = await databaseDir();
    const query = PGlite.prototype.query;
    const leaseAtQuery: boolean[] = [];
    vi.spyOn(PGlite.prototype, 'query').mockImplementation(async function (
      this: PGlite,
      ...args: Parameters<PGlite['query']>
    ) {
      leaseAtQuery.push(existsSync(lockOf(dir)));
      return query.apply(this, args);
    } as PGlite['query']);
    const close = PGlite.prototype.close;
    const leaseAtClose: boolean[] = [];
    vi.spyOn(PGlite.prototype, 'close').mockImplementation(async function (this: PGlite) {
      leaseAtClose.push(existsSync(lockOf(dir)));
      await close.call(this);
    });
    const run = await migrateDatabase({ kind: 'pglite', dir });
    expect(run.ran).toEqual(Object.keys(migrations));
    expect(leaseAtQuery.length).toBeGreaterThan(Object.keys(migrations).length);
    // (PGlite's close is called more than once as Kysely destroys it: each call must find the lease held.)
    expect({
      queriedWithoutLease: leaseAtQuery.filter((held) => !held).length,
      closed: leaseAtClose.length > 0,
      closedWithoutLease: leaseAtClose.filter((held) => !held).length,
      leaseAfter: existsSync(lockOf(dir)),
    }).toEqual({ queriedWithoutLease: 0, closed: true, closedWithoutLease: 0, leaseAfter: false });
  });
});
