// @vitest-environment node
/**
 * What the production server's log holds when the database fails mid-request: the error's kind and
 * words, the request's path, never the failed query's parameters (a password hash, an email, a report's text),
 * never a query string, and no line longer than a few kB. The database is the test's, so the test can break it.
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import { hash } from '@node-rs/argon2';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { OpenDatabase } from '../../api/database/open';
import { OWASP_ARGON2ID } from '../../api/passwords';
import { buildServer } from '../../server/app';
import { ORIGIN, resetDatabase, useTestDatabase } from '../support/apiHarness';
import { fakeBuild } from '../support/fakeBuild';
import { sampleReport } from '../support/reportFixture';

const lines: string[] = [];
let root: string;
let app: FastifyInstance;
let database: () => OpenDatabase;

describe('the server log', () => {
  database = useTestDatabase('pglite');

  beforeAll(async () => {
    const built = await fakeBuild('campaign-web-logs-');
    root = built.root;
    const dist = built.dist;
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    app = await buildServer({
      distDir: dist,
      dataDir: path.join(root, 'data'),
      imagesDir: path.join(root, 'images'),
      imageCacheDir: path.join(root, 'image-cache'),
      headers: { iconFallbackUrl: 'https://api.iconify.design', hsts: false },
      logger: { level: 'info', stream },
      database: database(),
    });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await rm(root, { recursive: true, force: true });
  });

  afterEach(async () => {
    lines.length = 0;
    await sql`drop trigger if exists refuse_updates on users`.execute(database().db);
    await resetDatabase(database());
  });

  const writes = { origin: ORIGIN, 'sec-fetch-site': 'same-origin' };

  /** The lines logged at error level, and every line, checked for size. */
  function errorLines(): Record<string, unknown>[] {
    for (const line of lines) expect(line.length).toBeLessThan(4_096);
    return lines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);
  }

  /** A database that fails the sign-in's re-hash: the update's parameters are both password hashes. */
  async function failUpdatesOfUsers() {
    await sql`create or replace function refuse_update() returns trigger language plpgsql as $$
    begin raise exception 'updates of users are refused here'; end $$`.execute(database().db);
    await sql`create trigger refuse_updates before update on users for each row execute function refuse_update()`.execute(
      database().db,
    );
  }

  /**
   * Gives the account a hash weaker than configured (one pass instead of two), so that signing in re-hashes it:
   * the demo accounts' seeded hashes are at today's parameters and would not be re-hashed.
   */
  async function storeWeakerHash(email: string, password: string): Promise<string> {
    const weaker = await hash(password, { ...OWASP_ARGON2ID, timeCost: 1 });
    await database()
      .db.updateTable('users')
      .set({ passwordHash: weaker })
      .where('email', '=', email)
      .execute();
    return weaker;
  }

  describe('a database failure during a sign-in', () => {
    it.each([
      [
        'the JSON API',
        {
          url: '/api/session',
          headers: { ...writes, 'content-type': 'application/json' },
          payload: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
        },
      ],
      [
        'the form',
        {
          url: '/login?redirect=%2Fhome&token=query-secret',
          headers: { ...writes, 'content-type': 'application/x-www-form-urlencoded' },
          payload: 'email=demo%40example.com&password=demo-password',
        },
      ],
    ])(
      'through %s logs neither the password hash, the email nor the password',
      { timeout: 60_000 },
      async (_how, request) => {
        const stored = await storeWeakerHash('demo@example.com', 'demo-password');
        await failUpdatesOfUsers();
        const res = await app.inject({ method: 'POST', ...request });
        expect(res.statusCode).toBe(500);
        const logged = errorLines();
        expect(logged).toHaveLength(1);
        expect(JSON.stringify(logged[0])).toMatch(/updates of users are refused here/);
        const everything = lines.join('\n');
        for (const secret of [
          stored,
          '$argon2id$',
          'demo@example.com',
          'demo-password',
          'query-secret',
          'password_hash',
        ])
          expect(everything).not.toContain(secret);
      },
    );
  });

  describe('a database failure during a report', () => {
    it('logs the failure without the report’s text or the SQL', async () => {
      await sql`alter table reports rename to reports_gone`.execute(database().db);
      try {
        const marker = 'a-report-text-that-must-stay-out-of-logs';
        const res = await app.inject({
          method: 'POST',
          url: '/api/reports?token=query-secret',
          headers: { ...writes, 'content-type': 'application/json' },
          payload: JSON.stringify(
            sampleReport({ error: { name: 'Marker', message: marker, status: 500 } }, Date.now()),
          ),
        });
        expect(res.statusCode).toBe(500);
        const [logged, ...more] = errorLines();
        expect(more).toEqual([]);
        expect(logged).toMatchObject({
          msg: '[demo-api] POST /api/reports failed:',
          err: { type: expect.any(String) },
        });
        const err = (logged?.err ?? {}) as object;
        expect(Object.keys(err).sort()).toEqual(
          ['code', 'message', 'stack', 'type'].filter((key) => key in err),
        );
        const everything = lines.join('\n');
        for (const secret of [marker, 'insert into', 'query-secret', 'mhx3k2a1'])
          expect(everything).not.toContain(secret);
      } finally {
        await sql`alter table reports_gone rename to reports`.execute(database().db);
      }
    });
  });
});
