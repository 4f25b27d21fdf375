// @vitest-environment node
// Durable by default: an acknowledged write of the embedded database is on the disk, not only in the
// page cache. PGlite's defaults start PostgreSQL with fsync off (-F), and Emscripten's NODEFS drops fsync even
// when PostgreSQL asks; both are undone in api/database/open.ts, and both are checked here on a folder database.
import fs from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type OpenDatabase, openDatabase, PGLITE_START_PARAMS } from '../../../api/database/open';

describe('the embedded database on a folder', { timeout: 120_000 }, () => {
  let parent: string;
  let database: OpenDatabase;

  beforeAll(async () => {
    parent = await mkdtemp(path.join(tmpdir(), 'campaign-web-durable-'));
    database = await openDatabase(
      { kind: 'pglite', dir: path.join(parent, 'pglite') },
      { migrate: true, demoData: false },
    );
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await rm(parent, { recursive: true, force: true });
  });

  const setting = async (name: string) =>
    (await sql<{ value: string }>`select current_setting(${name}) as value`.execute(database.db)).rows[0]
      ?.value;

  it('runs PostgreSQL with fsync on, the WAL flushed with fsync()', async () => {
    expect(PGlite.defaultStartParams).toContain('-F');
    expect(PGLITE_START_PARAMS).not.toContain('-F');
    expect(await setting('fsync')).toBe('on');
    expect(await setting('synchronous_commit')).toBe('on');
    expect(await setting('wal_sync_method')).toBe('fsync');
  });

  it('reaches the disk: a commit calls fsync on a real file before it is acknowledged', async () => {
    const real = fs.fsyncSync;
    const synced: boolean[] = [];
    // What each call syncs, seen while its descriptor is open: a file of the data folder (the WAL among them).
    const fsync = vi.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
      synced.push(fs.fstatSync(fd).isFile());
      real(fd);
    });
    try {
      await database.db
        .insertInto('users')
        .values({
          id: 'durable',
          email: 'durable@example.com',
          emailKey: 'durable@example.com',
          displayName: 'D',
          passwordHash: 'x',
        })
        .execute();
      expect(synced.length).toBeGreaterThan(0);
      expect(synced.every(Boolean)).toBe(true);
    } finally {
      fsync.mockRestore();
    }
  });
});
