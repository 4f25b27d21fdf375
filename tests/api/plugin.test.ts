// @vitest-environment node
// The API plugin (api/plugin.ts) on a Fastify instance of someone else's making: with accounts of its own when
// none are shared, every URL under its prefix answered in JSON even beside the host's catch-all route, and its
// periodic pruning stopped when the host closes.
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testApiConfig } from '../../api/config';
import { apiPlugin } from '../../api/plugin';
import { ORIGIN, resetDatabase, useTestDatabase } from '../support/apiHarness';

const TEN_MINUTES = 10 * 60 * 1000;

describe('the API plugin on a host server', () => {
  const database = useTestDatabase('pglite');
  const quiet = { error: () => {} };

  afterEach(() => {
    vi.useRealTimers();
  });

  async function host(setUp: (app: FastifyInstance) => void = () => {}) {
    await resetDatabase(database());
    const app = Fastify();
    setUp(app);
    await app.register(apiPlugin, { prefix: '/api', db: database().db, config: testApiConfig(), log: quiet });
    await app.ready();
    return app;
  }

  it('makes accounts of its own when none are shared: sign-in and the session work', async () => {
    const app = await host();
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
    });
    expect(signIn.statusCode).toBe(200);
    const cookie = String(signIn.headers['set-cookie']).split(';')[0] ?? '';
    const session = await app.inject({ url: '/api/session', headers: { cookie } });
    expect(session.json()).toMatchObject({ user: { email: 'demo@example.com' } });
    await app.close();
  });

  it('answers its own root in JSON, not the host’s catch-all page', async () => {
    const app = await host((root) => {
      root.register(fastifyCookie);
      root.get('/*', async (_request, reply) => reply.type('text/html').send('<p>page</p>'));
    });
    for (const url of ['/api', '/api/']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: `No API route for GET ${url}.` });
    }
    await app.close();
  });

  it('stops pruning when the host closes', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const config = testApiConfig();
    const app = await host();
    const old = new Date(Date.now() - (config.reports.maxAgeDays + 1) * 86_400_000);
    const insertOld = (id: string) =>
      database()
        .db.insertInto('reports')
        .values({
          id,
          receivedAt: old,
          kind: 'error',
          buildId: 'b',
          routeName: null,
          path: '/',
          errorName: null,
          errorMessage: null,
          errorStatus: null,
          body: JSON.stringify({}),
        })
        .execute();
    const left = async () =>
      (await database().db.selectFrom('reports').select('id').execute()).map((row) => row.id);

    // Open, the pruning runs every ten minutes.
    await insertOld('before-close');
    vi.advanceTimersByTime(TEN_MINUTES);
    await vi.waitFor(async () => expect(await left()).toEqual([]));

    // Closed, it runs no more.
    await app.close();
    await insertOld('after-close');
    vi.advanceTimersByTime(3 * TEN_MINUTES);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await left()).toEqual(['after-close']);
  });
});
