// @vitest-environment node
// The API plugin (api/plugin.ts) and what it sets up around the routes: 404s, 405s and 414s (api/unmatched.ts),
// the delay, the 500 that tells nothing and its log line, the pruning. And the plugin on a Fastify instance of
// someone else's making: with accounts of its own when none are shared, every URL under its prefix answered in
// JSON even beside the host's catch-all route, and its periodic pruning stopped when the host closes.
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { testApiConfig } from '../../api/config';
import { apiPlugin } from '../../api/plugin';
import { type ApiClient, backends, ORIGIN, useApi } from '../support/apiHarness';

const TEN_MINUTES = 10 * 60 * 1000;

describe('the API plugin on a host server', () => {
  const { database } = useApi('pglite');
  const quiet = { error: () => {} };

  afterEach(() => {
    vi.useRealTimers();
  });

  async function host(setUp: (app: FastifyInstance) => void = () => {}) {
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

describe.each(backends())('routing and errors on %s', (kind) => {
  const { database, open } = useApi(kind);
  let api: ApiClient;
  beforeEach(async () => {
    api = await open();
  });

  it('answers 404 for unknown paths and 405 with Allow for wrong methods', async () => {
    const missing = await api.request({ url: '/api/nope?x=1' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'No API route for GET /api/nope.' });
    const res = await api.request({ method: 'PUT', url: '/api/session' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, POST, DELETE');
    expect(res.json()).toEqual({ message: 'PUT is not allowed on /api/session; use GET, POST, DELETE.' });
    expect((await api.request({ method: 'DELETE', url: '/api/campaigns' })).headers.allow).toBe('GET');
    const withQuery = await api.request({ method: 'PUT', url: '/api/session?x=1' });
    expect(withQuery.json()).toEqual({
      message: 'PUT is not allowed on /api/session; use GET, POST, DELETE.',
    });
  });

  it('answers every path under /api with JSON, echoing at most 200 characters of it', async () => {
    for (const url of ['/api', '/api/']) {
      const res = await api.request({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ message: `No API route for GET ${url}.` });
    }
    const path200 = `/api/${'x'.repeat(195)}`;
    expect((await api.request({ url: path200 })).json()).toEqual({
      message: `No API route for GET ${path200}.`,
    });
    const long = await api.request({ url: `${path200}yz?q=1` });
    expect(long.json()).toEqual({ message: `No API route for GET ${path200}….` });
  });

  it('answers 414 for a URL over 2048 characters', async () => {
    const at = `/api/nope/${'x'.repeat(2038)}`;
    expect(at).toHaveLength(2048);
    expect((await api.request({ url: at })).statusCode).toBe(404);
    const over = await api.request({ url: `${at}x` });
    expect(over.statusCode).toBe(414);
    expect(over.json()).toEqual({ message: 'The URL is too long (at most 2048 characters).' });
  });

  it('waits DEMO_API_DELAY_MS before every answer', async () => {
    const slow = await open({ config: { delayMs: 80 } });
    const started = performance.now();
    expect((await slow.request({ url: '/api/session' })).statusCode).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(75);
  });

  it('logs a failed start-up pruning and serves all the same', async () => {
    const errors: unknown[][] = [];
    await database().db.schema.alterTable('sessions').renameTo('sessions_gone').execute();
    const started = await open({
      log: { error: (...args: unknown[]) => errors.push(args) },
    }).finally(() => database().db.schema.alterTable('sessions_gone').renameTo('sessions').execute());
    expect(errors.map((args) => args[0])).toEqual(['[demo-api] pruning sessions and reports failed:']);
    expect((await started.request({ url: '/api/campaigns' })).statusCode).toBe(200);
  });

  it('turns unexpected failures into a logged 500 with the same body shape', async () => {
    const errors: unknown[][] = [];
    const broken = await open({
      log: { error: (...args: unknown[]) => errors.push(args) },
    });
    await database().db.schema.alterTable('campaigns').renameTo('campaigns_gone').execute();
    try {
      const res = await broken.request({ url: '/api/campaigns' });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ message: 'The demo API failed unexpectedly.' });
      expect(errors).toHaveLength(1);
      expect(errors[0]?.[0]).toBe('[demo-api] GET /api/campaigns failed:');
    } finally {
      await database().db.schema.alterTable('campaigns_gone').renameTo('campaigns').execute();
    }
  });
});
