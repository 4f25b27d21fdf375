// @vitest-environment node
/**
 * Scaling out on PostgreSQL: two instances of the API on one database behave as one. In process,
 * two apps with a connection pool each: a session made on one is valid on the other, signing out on one ends
 * it on both, and the sign-in and report limits reached through one hold on the other; two production servers
 * share the per-address limits on /api/* and new image variants the same way. As processes
 * (api/main.ts): one killed with SIGKILL mid-load loses no write it acknowledged, and the other goes on.
 * PostgreSQL only: without TEST_DATABASE_URL these are skipped, with a message.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { CamelCasePlugin, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testApiConfig } from '../../api/config';
import type { OpenDatabase } from '../../api/database/open';
import type { Database } from '../../api/database/schema';
import { buildServer } from '../../server/app';
import {
  type ApiClient,
  apiClient,
  freePort,
  freshPostgresDatabase,
  openTestDatabase,
  POSTGRES_URL,
} from '../support/apiHarness';
import { fakeBuild } from '../support/fakeBuild';
import { sampleReport } from '../support/reportFixture';

const STARTUP_MS = 90_000;
/** Long enough for a loaded machine: the load's pace is not what is tested. */
const LOAD_POLL = { timeout: 60_000, interval: 50 };

if (!POSTGRES_URL) {
  console.warn(
    '[scale-out tests] TEST_DATABASE_URL is not set: the two-instance tests on PostgreSQL are SKIPPED ' +
      '(scripts/ci/with-postgres.sh runs them).',
  );
}

/** A second instance's own pool on the database `first` is on, as another process would open it. */
async function secondPool(first: OpenDatabase): Promise<OpenDatabase> {
  if (!POSTGRES_URL) throw new Error('TEST_DATABASE_URL is not set');
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(first.db);
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${rows[0]?.name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 5 });
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    plugins: [new CamelCasePlugin()],
  });
  return { db, kind: 'postgres', where: 'the second pool', close: () => db.destroy() } as OpenDatabase;
}

describe.skipIf(!POSTGRES_URL)('two instances on one PostgreSQL', () => {
  let first: OpenDatabase;
  let second: OpenDatabase;
  const clients: ApiClient[] = [];

  beforeAll(async () => {
    first = await openTestDatabase('postgres');
    second = await secondPool(first);
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    await sql`truncate sessions, rate_limits, request_limits, reports`.execute(first.db);
  });

  /** Instances one and two, each on its own pool, with the same configuration. */
  async function pair(config: Parameters<typeof testApiConfig>[0] = {}): Promise<[ApiClient, ApiClient]> {
    const options = { config: testApiConfig(config), sleep: async () => {} };
    const one = await apiClient(first, options);
    const two = await apiClient(second, options);
    clients.push(one, two);
    return [one, two];
  }

  it('a session made on one is valid on the other; signing out on one ends it on both', async () => {
    const [one, two] = await pair();
    const cookie = await one.signIn();
    for (const api of [one, two]) {
      const seen = await api.request({ method: 'GET', url: '/api/session', cookie });
      expect(seen.json().user).toMatchObject({ email: 'demo@example.com' });
    }
    expect((await two.request({ method: 'DELETE', url: '/api/session', cookie })).statusCode).toBe(204);
    for (const api of [one, two]) {
      expect((await api.request({ method: 'GET', url: '/api/session', cookie })).json().user).toBeNull();
      expect((await api.request({ method: 'GET', url: '/api/profile', cookie })).statusCode).toBe(401);
    }
  });

  it('share the sign-in limit: failures through one count on the other', async () => {
    const base = testApiConfig();
    const [one, two] = await pair({
      signInLimits: { ...base.signInLimits, perAccount: 3, perAddress: 100 },
    });
    const wrong = (api: ApiClient) =>
      api.request({
        method: 'POST',
        url: '/api/session',
        payload: { email: 'demo@example.com', password: 'not-the-password' },
      });
    // Taking turns, as a proxy spreading one guesser's requests would.
    expect([
      (await wrong(one)).statusCode,
      (await wrong(two)).statusCode,
      (await wrong(one)).statusCode,
    ]).toEqual([401, 401, 401]);
    const refused = await wrong(two);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await wrong(one)).statusCode).toBe(429);
  });

  it('share the report limit: reports through one count on the other', async () => {
    const base = testApiConfig();
    const [one, two] = await pair({ reports: { ...base.reports, perAddress: 3, windowSeconds: 60 } });
    const report = (api: ApiClient) =>
      api.request({
        method: 'POST',
        url: '/api/reports',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(sampleReport({}, Date.now())),
      });
    const statuses = [];
    for (const api of [one, two, one, two, one]) statuses.push((await report(api)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const { count } = await first.db
      .selectFrom('reports')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(3);
  });

  it('share the per-address limits of the production server: /api/* and new image variants', async () => {
    const { root, dist } = await fakeBuild('campaign-web-scaleout-');
    const images = path.join(root, 'images');
    await mkdir(images);
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#06c' } })
      .png()
      .toFile(path.join(images, 'one.png'));
    const servers: FastifyInstance[] = [];
    try {
      for (const [name, database] of [
        ['one', first],
        ['two', second],
      ] as const) {
        servers.push(
          await buildServer({
            distDir: dist,
            dataDir: path.join(root, `data-${name}`),
            imagesDir: images,
            // Each instance renders into its own cache, as replicas without a shared volume do.
            imageCacheDir: path.join(root, `cache-${name}`),
            headers: { iconFallbackUrl: 'https://api.iconify.design', hsts: false },
            logger: false,
            api: testApiConfig(),
            database,
            rateLimits: { apiPerMinute: 2, imageVariantsPerMinute: 2 },
          }),
        );
      }
      const [one, two] = servers as [FastifyInstance, FastifyInstance];
      const from = { remoteAddress: '203.0.113.60' };
      const api = [];
      for (const server of [one, two, one]) api.push(await server.inject({ url: '/api/session', ...from }));
      expect(api.map((answer) => answer.statusCode)).toEqual([200, 200, 429]);
      expect(api.map((answer) => answer.headers.ratelimit)).toEqual([
        expect.stringMatching(/^"api";r=1;t=\d+$/),
        expect.stringMatching(/^"api";r=0;t=\d+$/),
        expect.stringMatching(/^"api";r=0;t=\d+$/),
      ]);
      expect(Number(api[2]?.headers['retry-after'])).toBeGreaterThan(0);
      // Another address is not held back by the first, on either instance.
      expect((await two.inject({ url: '/api/session', remoteAddress: '203.0.113.61' })).statusCode).toBe(200);

      const renders = [];
      for (const [server, width] of [
        [two, 11],
        [one, 12],
        [two, 13],
      ] as const)
        renders.push((await server.inject({ url: `/_ipx/w_${width}/one.png`, ...from })).statusCode);
      expect(renders).toEqual([200, 200, 429]);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await rm(root, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!POSTGRES_URL)('two API processes on one PostgreSQL', { timeout: 3 * STARTUP_MS }, () => {
  const children: ChildProcess[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await drop?.();
  });

  async function start(
    url: string,
  ): Promise<{ base: string; child: ChildProcess; exited: Promise<unknown> }> {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PORT: String(port),
        DATABASE_URL: url,
        DATA_DIR: '',
        // The load below is one address's; this test is about writes, not limits.
        REPORTS_PER_ADDRESS: '1000000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      const check = () => (output.includes('listening on') ? resolve() : setTimeout(check, 50));
      check();
      // Only to reject the wait early: `exited` never rejects, and the wait is awaited.
      void exited.then(() => reject(new Error(`the API exited before listening:\n${output}`)));
    });
    return { base: `http://127.0.0.1:${port}`, child, exited };
  }

  it('loses no acknowledged write when one is killed mid-load, and the other goes on', async () => {
    const fresh = await freshPostgresDatabase();
    drop = fresh.drop;
    const [one, two] = await Promise.all([start(fresh.url), start(fresh.url)]);

    const acknowledged: { instance: 'one' | 'two'; id: string; at: number }[] = [];
    let refusedByOne = 0;
    let stop = false;
    let killedAt = Number.POSITIVE_INFINITY;
    const worker = async (instance: 'one' | 'two', base: string) => {
      while (!stop) {
        let response: Response;
        try {
          response = await fetch(`${base}/api/reports`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', origin: base },
            body: JSON.stringify(sampleReport({}, Date.now())),
          });
        } catch {
          // The killed instance: its connections are reset or refused; that write was never acknowledged.
          expect(instance).toBe('one');
          refusedByOne += 1;
          if (refusedByOne > 20) return;
          await new Promise((resolve) => setTimeout(resolve, 10));
          continue;
        }
        // Cut off while reading the answer counts as unacknowledged too.
        const body = await response.json().catch(() => undefined);
        if (body === undefined) continue;
        expect(response.status, `instance ${instance}`).toBe(201);
        acknowledged.push({ instance, id: String((body as { id: string }).id), at: Date.now() });
      }
    };
    const load = [
      ...Array.from({ length: 4 }, () => worker('one', one.base)),
      ...Array.from({ length: 2 }, () => worker('two', two.base)),
    ];
    await expect
      .poll(() => acknowledged.filter((write) => write.instance === 'one').length, LOAD_POLL)
      .toBeGreaterThan(20);
    one.child.kill('SIGKILL');
    await one.exited;
    killedAt = Date.now();
    await expect
      .poll(
        () => acknowledged.filter((write) => write.instance === 'two' && write.at > killedAt).length,
        LOAD_POLL,
      )
      .toBeGreaterThan(10);
    stop = true;
    await Promise.all(load);

    expect(refusedByOne).toBeGreaterThan(0);
    const client = new pg.Client({ connectionString: fresh.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ id: string }>('select id::text from reports');
      const stored = new Set(rows.map((row) => row.id));
      const lost = acknowledged.filter((write) => !stored.has(String(write.id)));
      expect(lost, `${acknowledged.length} writes acknowledged`).toEqual([]);
    } finally {
      await client.end();
    }
    two.child.kill('SIGTERM');
    await two.exited;
  });
});
