// @vitest-environment node
// The report table's own functions (api/reports.ts: storeReport, pruneReports, listReports) over a migrated
// database: each delete takes only the rows it means (beyond the count, past the age, the one id asked for), and
// every write is awaited: a write the database refuses fails the call instead of being reported as done.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listReports, pruneReports, storeReport } from '../../../api/reports';
import { pinRow, resetDatabase, unpinRows, useTestDatabase } from '../../support/apiHarness';
import { sampleReport } from '../../support/reportFixture';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 31);
const quiet = { warn: () => {} };

describe('the report table', () => {
  const database = useTestDatabase('pglite');
  const db = () => database().db;
  /** Stores a report received `daysAgo` days before NOW, keeping at most `maxCount`; its id. */
  const store = (daysAgo: number, maxCount = 100) =>
    storeReport(db(), sampleReport(), new Date(NOW - daysAgo * DAY), maxCount);
  const storedIds = async () => (await listReports(db(), { limit: 100 }, quiet)).map((report) => report.id);
  beforeEach(async () => {
    await resetDatabase(database());
  });
  afterEach(async () => {
    await unpinRows(db());
    await sql`alter table reports drop constraint if exists refuse_reports`.execute(db());
  });

  it('keeps the newest reports up to the count as each arrives, and drops only the oldest beyond it', async () => {
    const oldest = await store(3);
    const middle = await store(2);
    const newest = await store(1, 2);
    expect(await storedIds()).toEqual([newest, middle]);
    expect(await storedIds()).not.toContain(oldest);
  });

  it('prunes the reports past the age limit and beyond the count, and keeps the rest', async () => {
    const tooOld = await store(31);
    const kept = [await store(10), await store(5), await store(1)];
    expect(await pruneReports(db(), { maxAgeDays: 30, maxCount: 2 }, () => NOW)).toBe(2);
    const left = await storedIds();
    expect(left).toEqual([kept[2], kept[1]]);
    expect(left).not.toContain(tooOld);
  });

  it('lists the one report asked for by its id', async () => {
    const wanted = await store(2);
    await store(1);
    expect((await listReports(db(), { limit: 10, id: wanted }, quiet)).map((report) => report.id)).toEqual([
      wanted,
    ]);
    expect(await listReports(db(), { limit: 10, id: 'no-such-report' }, quiet)).toEqual([]);
  });

  it('fails to store a report the table refuses', async () => {
    await sql`alter table reports add constraint refuse_reports check (kind <> 'error')`.execute(db());
    await expect(store(1)).rejects.toThrow('refuse_reports');
  });

  it('fails to store a report when the oldest beyond the count cannot be dropped', async () => {
    await pinRow(db(), 'reports', 'id', await store(2));
    await expect(store(1, 1)).rejects.toThrow('pinned_reports');
  });

  it('fails a pruning that cannot delete a report past the age limit, or one beyond the count', async () => {
    await pinRow(db(), 'reports', 'id', await store(40));
    await expect(pruneReports(db(), { maxAgeDays: 30, maxCount: 100 }, () => NOW)).rejects.toThrow(
      'pinned_reports',
    );
    await expect(pruneReports(db(), { maxAgeDays: 100, maxCount: 0 }, () => NOW)).rejects.toThrow(
      'pinned_reports',
    );
  });
});
