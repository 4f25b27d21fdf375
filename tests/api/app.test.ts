// @vitest-environment node
// createApiApp (api/app.ts) as its callers rely on it: ready when it resolves; the database it opened itself
// closed with it, and one it was given left open; a failed start that leaves nothing locked; and client
// addresses from X-Forwarded-For only when told to trust a proxy.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createApiApp } from '../../api/app';
import { testApiConfig } from '../../api/config';
import { migratedDump, ORIGIN, openTestDatabase, useTestDatabase } from '../support/apiHarness';
import { sampleReport } from '../support/reportFixture';

// Each test opens an embedded database of its own (a dump loaded, or a folder made): seconds on a busy machine.
vi.setConfig({ testTimeout: 30_000 });

const report = sampleReport(
  { route: { name: 'index', path: '/' }, state: 'settled', events: [] },
  Date.now(),
);

describe('createApiApp', () => {
  const database = useTestDatabase('pglite');
  const quiet = { error: () => {} };

  it('resolves with every route loaded', async () => {
    const { app } = await createApiApp({ config: testApiConfig(), database: database(), log: quiet });
    expect(app.hasRoute({ method: 'GET', url: '/api/session' })).toBe(true);
    expect(app.hasRoute({ method: 'POST', url: '/login' })).toBe(true);
    await app.close();
  });

  it('closes the database it opened itself, and leaves open one it was given', async () => {
    const own = await createApiApp({
      config: testApiConfig({ database: { kind: 'pglite', from: await migratedDump() } }),
      log: quiet,
    });
    await own.app.close();
    await expect(own.database.db.selectFrom('users').select('id').execute()).rejects.toThrow();

    const given = await createApiApp({ config: testApiConfig(), database: database(), log: quiet });
    await given.app.close();
    expect((await database().db.selectFrom('users').select('id').execute()).length).toBeGreaterThan(0);
  }, 30_000);

  describe('with a data folder', () => {
    let dir: string | undefined;
    afterAll(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('fails to start when a plugin cannot load, and leaves the folder unlocked', async () => {
      dir = await mkdtemp(join(tmpdir(), 'campaign-api-app-'));
      const data = join(dir, 'data');
      const config = testApiConfig({ database: { kind: 'pglite', dir: data } });
      // A body limit Fastify refuses fails the plugins' loading, inside `ready`.
      await expect(createApiApp({ config: { ...config, bodyLimitBytes: -1 }, log: quiet })).rejects.toThrow(
        /bodyLimit/,
      );
      expect(existsSync(`${data}.lock`)).toBe(false);
      // So the next start takes the folder, and its close lets go of it again.
      const { app } = await createApiApp({ config, log: quiet });
      expect(existsSync(`${data}.lock`)).toBe(true);
      await app.close();
      expect(existsSync(`${data}.lock`)).toBe(false);
    }, 120_000);
  });

  describe('the client address (each may send one report here)', () => {
    const send = (app: Awaited<ReturnType<typeof createApiApp>>['app'], forwardedFor: string) =>
      app.inject({
        method: 'POST',
        url: '/api/reports',
        headers: {
          origin: ORIGIN,
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/json',
          'x-forwarded-for': forwardedFor,
        },
        payload: JSON.stringify(report),
      });
    const config = () => {
      const base = testApiConfig();
      return testApiConfig({ reports: { ...base.reports, perAddress: 1 } });
    };

    it('is the connection’s by default: X-Forwarded-For is not believed', async () => {
      const { app } = await createApiApp({ config: config(), database: database(), log: quiet });
      expect((await send(app, '203.0.113.1')).statusCode).toBe(201);
      expect((await send(app, '203.0.113.2')).statusCode).toBe(429);
      await app.close();
    });

    it('is the address the one trusted proxy appended: the client cannot choose its own', async () => {
      const { app } = await createApiApp({
        config: config(),
        database: database(),
        log: quiet,
        trustProxy: 1,
      });
      // The proxy (the socket) appended the client's real address last; what came before is the client's word.
      expect((await send(app, '203.0.113.1, 198.51.100.1')).statusCode).toBe(201);
      expect((await send(app, '203.0.113.2, 198.51.100.1')).statusCode).toBe(429);
      expect((await send(app, '198.51.100.2')).statusCode).toBe(201);
      await app.close();
    });

    it('is the first address not among the listed proxies', async () => {
      const { app } = await createApiApp({
        config: config(),
        database: database(),
        log: quiet,
        trustProxy: ['127.0.0.1', '10.0.0.0/8'],
      });
      expect((await send(app, '203.0.113.9, 10.1.2.3')).statusCode).toBe(201);
      expect((await send(app, '192.0.2.1, 203.0.113.9, 10.9.9.9')).statusCode).toBe(429);
      await app.close();
    });
  });
});

describe('createApiApp, on a database of its own for each test', () => {
  // (That it closes a database it opened itself is left to the processes' tests: opening a second embedded
  // database here would cost seconds for every mutant of the API's start-up.)
  it('leaves a database it was given open when the app closes', async () => {
    const given = await openTestDatabase('pglite');
    try {
      const close = vi.fn(async () => {});
      const { app } = await createApiApp({ config: testApiConfig(), database: { ...given, close } });
      await app.close();
      expect(close).not.toHaveBeenCalled();
    } finally {
      await given.close();
    }
  }, 60_000);

  it('fails to start, rather than serve half an app, when a route cannot be set up', async () => {
    const database = await openTestDatabase('pglite');
    try {
      await expect(
        createApiApp({ config: testApiConfig({ bodyLimitBytes: -1 }), database }),
      ).rejects.toThrow();
    } finally {
      await database.close();
    }
  }, 60_000);
});
