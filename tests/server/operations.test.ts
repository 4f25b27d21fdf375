// @vitest-environment node
/**
 * Operations at the edge: request ids taken from a trusted proxy (TRUST_PROXY) when they are safe, and
 * made otherwise, in every log line and in the answer; load shedding while the event loop lags, /healthz never
 * shed; the per-address limits.
 */
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApiConfig } from '../../api/config';
import type { OpenDatabase } from '../../api/database/open';
import { buildServer, type ServerOptions } from '../../server/app';
import { SHED_RETRY_AFTER_SECONDS } from '../../server/plugins/loadShedding';
import { useTestDatabase } from '../support/apiHarness';
import { fakeBuild } from '../support/fakeBuild';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

let root: string;
const lines: string[] = [];
let database: () => OpenDatabase;

/** The server on a one-page build, logging JSON lines into `lines`. */
async function server(extra: Partial<ServerOptions> = {}): Promise<FastifyInstance> {
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return buildServer({
    distDir: path.join(root, 'dist'),
    dataDir: path.join(root, 'data'),
    imagesDir: path.join(root, 'images'),
    imageCacheDir: path.join(root, 'image-cache'),
    headers: { iconFallbackUrl: 'https://api.iconify.design', hsts: false },
    logger: { level: 'info', stream },
    database: database(),
    ...extra,
  });
}

const logged = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
/** The security events logged, each on a line of its own (server/plugins/requestLog.ts). */
const securityEvents = () =>
  logged()
    .filter((entry) => entry.msg === 'security event')
    .map((entry) => entry.security);

describe('the edge of the server', () => {
  database = useTestDatabase('pglite');

  beforeAll(async () => {
    const built = await fakeBuild('campaign-web-ops-');
    root = built.root;
    const _dist = built.dist;
    await mkdir(path.join(root, 'images'));
    await sharp({ create: { width: 64, height: 64, channels: 3, background: '#0a0' } })
      .png()
      .toFile(path.join(root, 'images/one.png'));
  }, 60_000);

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  beforeEach(() => {
    lines.length = 0;
  });

  describe('request ids behind a trusted proxy (TRUST_PROXY=1)', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await server({ trustProxy: 1 });
    }, 60_000);
    afterAll(() => app?.close());

    it('keeps a proxy’s well-formed x-request-id: echoed, and on every line the request logs', async () => {
      for (const id of [
        'abc123',
        '3f2b6c1e-8d4a-4f7e-9b1a-2c3d4e5f6a7b',
        'Root=1-67891233-abcdef012345678912345678',
      ]) {
        lines.length = 0;
        // A request that logs twice: the API's refusal (a security event) and the request line.
        const response = await app.inject({
          method: 'POST',
          url: '/api/session',
          headers: {
            'x-request-id': id,
            origin: 'https://elsewhere.example',
            'content-type': 'application/json',
          },
          payload: '{}',
        });
        expect(response.statusCode).toBe(403);
        expect(response.headers['x-request-id']).toBe(id);
        const entries = logged();
        expect(entries.length, lines.join('\n')).toBeGreaterThanOrEqual(2);
        for (const entry of entries) expect(entry.reqId, JSON.stringify(entry)).toBe(id);
        expect(entries.find((entry) => entry.msg === 'request')).toMatchObject({ status: 403 });
      }
    });

    it('makes one when none is sent, a new one per request', async () => {
      const [one, two] = [await app.inject('/healthz'), await app.inject('/')];
      const ids = [one, two].map((response) => response.headers['x-request-id'] as string);
      for (const id of ids) expect(id).toMatch(UUID);
      expect(ids[0]).not.toBe(ids[1]);
      expect(logged().map((entry) => entry.reqId)).toEqual(ids);
    });

    const hostile: [string, string][] = [
      ['a line break', 'abc\nfake log line'],
      ['a carriage return', 'abc\r{"level":60}'],
      ['a terminal escape', '\u001b[31mred'],
      ['a quote and braces', 'a"},{"level":60'],
      ['a kilobyte', 'a'.repeat(1024)],
      ['spaces', 'one two'],
      ['a leading dash', '-rf'],
      ['nothing', ''],
    ];
    for (const [kind, id] of hostile) {
      it(`replaces one with ${kind} by its own`, async () => {
        const response = await app.inject({ url: '/healthz', headers: { 'x-request-id': id } });
        expect(response.statusCode).toBe(200);
        const echoed = response.headers['x-request-id'] as string;
        expect(echoed).toMatch(UUID);
        const [entry] = logged();
        expect(entry?.reqId).toBe(echoed);
        expect(lines.join('\n')).not.toContain(id || '""');
      });
    }

    it('takes one header only: a repeated x-request-id is replaced', async () => {
      const response = await app.inject({ url: '/healthz', headers: { 'x-request-id': ['a1', 'b2'] } });
      expect(response.headers['x-request-id']).toMatch(UUID);
    });
  });

  // Who sent a request, in the log: the address the limits count, so a line can be matched with a refusal.
  describe('the client address in the log', () => {
    let direct: FastifyInstance;
    let proxied: FastifyInstance;
    beforeAll(async () => {
      direct = await server();
      proxied = await server({ trustProxy: 1 });
    }, 60_000);
    afterAll(() => Promise.all([direct?.close(), proxied?.close()]));

    /** A cross-site write (a security event and the request line), arriving from the proxy's socket. */
    const forged = (app: FastifyInstance) =>
      app.inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress: '10.0.0.2',
        headers: {
          // The client wrote the left-most entry; the proxy appended the address it saw.
          'x-forwarded-for': '192.0.2.66, 198.51.100.23',
          origin: 'https://elsewhere.example',
          'content-type': 'application/json',
        },
        payload: '{}',
      });

    it('is the one the trusted proxy appended, never the client’s own left-most entry', async () => {
      expect((await forged(proxied)).statusCode).toBe(403);
      expect(logged().find((entry) => entry.msg === 'request')).toMatchObject({
        status: 403,
        ip: '198.51.100.23',
      });
      expect(logged().find((entry) => entry.msg === 'security event')?.security).toMatchObject({
        event: 'origin.refused',
        address: '198.51.100.23',
      });
      expect(lines.join('\n')).not.toContain('192.0.2.66');
    });

    it('is the socket’s without TRUST_PROXY, whatever X-Forwarded-For says', async () => {
      expect((await forged(direct)).statusCode).toBe(403);
      expect(logged().find((entry) => entry.msg === 'request')).toMatchObject({
        status: 403,
        ip: '10.0.0.2',
      });
      expect(lines.join('\n')).not.toMatch(/192\.0\.2\.66|198\.51\.100\.23/);
    });
  });

  // Without TRUST_PROXY the sender is the client itself: its id would be a label it chose, so it is not taken.
  describe('request ids with no trusted proxy', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await server();
    }, 60_000);
    afterAll(() => app?.close());

    it('replaces a client’s well-formed x-request-id by its own, in the answer and on every line', async () => {
      const response = await app.inject({ url: '/healthz', headers: { 'x-request-id': 'chosen-by-client' } });
      expect(response.statusCode).toBe(200);
      const echoed = response.headers['x-request-id'] as string;
      expect(echoed).toMatch(UUID);
      expect(logged().map((entry) => entry.reqId)).toEqual([echoed]);
      expect(lines.join('\n')).not.toContain('chosen-by-client');
    });
  });

  describe('request ids with TRUST_PROXY naming the proxies', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await server({ trustProxy: ['10.0.0.2', '10.1.0.0/16'] });
    }, 60_000);
    afterAll(() => app?.close());

    it.each([
      ['the proxy named by address', '10.0.0.2', true],
      ['a proxy in the named range', '10.1.7.9', true],
      ['the named proxy over IPv6 (IPv4-mapped)', '::ffff:10.0.0.2', true],
      ['a client beside the proxies', '192.0.2.9', false],
      ['a client next to the proxy', '10.0.0.3', false],
    ])('from %s (%s): kept %s', async (_who, remoteAddress, kept) => {
      const response = await app.inject({
        url: '/healthz',
        remoteAddress,
        headers: { 'x-request-id': 'from-the-peer-1' },
      });
      const echoed = response.headers['x-request-id'] as string;
      if (kept) expect(echoed).toBe('from-the-peer-1');
      else expect(echoed).toMatch(UUID);
      expect(logged().map((entry) => entry.reqId)).toEqual([echoed]);
    });
  });

  // The plugins that refuse a request (server/plugins/) answer before any route is reached: the other plugins'
  // hooks, which log the request, name it and set the headers, must run for it all the same.
  describe('a request refused before any route', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      app = await server({ publicOrigin: 'https://campaigns.example', trustProxy: 1 });
    }, 60_000);
    afterAll(() => app?.close());

    it('is logged with its id, echoes the id and carries the security headers (a 421 for another Host)', async () => {
      const response = await app.inject({
        url: '/',
        headers: { host: 'evil.example', 'x-request-id': 'refused-1' },
      });
      expect(response.statusCode).toBe(421);
      expect(response.headers['x-request-id']).toBe('refused-1');
      expect(response.headers['content-security-policy']).toMatch(/^default-src 'self'/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cache-control']).toBe('no-store');
      expect(logged().find((entry) => entry.msg === 'request')).toMatchObject({
        reqId: 'refused-1',
        status: 421,
        path: '/',
      });
    });
  });

  describe('load shedding', () => {
    let app: FastifyInstance;
    beforeAll(async () => {
      // A low threshold sampled often, and a route (this test's alone) that holds the event loop.
      // The API's answers wait a little (DEMO_API_DELAY_MS), as a slow answer's would: a shed request's answer
      // is then still on its way when the route would run.
      app = await server({
        loadShedding: { maxEventLoopDelayMs: 30, sampleIntervalMs: 20 },
        api: testApiConfig({ delayMs: 50 }),
      });
      app.get('/test/block', async () => {
        const until = Date.now() + 300;
        while (Date.now() < until) {
          // Busy: nothing else runs on this thread meanwhile.
        }
        return { blocked: true };
      });
      await app.ready();
    }, 60_000);
    afterAll(() => app?.close());

    it('answers 503 + Retry-After while the loop lags, never on /healthz, and serves again after', async () => {
      // Served when the loop keeps up (polled: on a loaded machine a sample can lag on its own).
      await expect
        .poll(async () => (await app.inject('/api/session')).statusCode, { timeout: 10_000 })
        .toBe(200);
      let shed:
        | { api: Awaited<ReturnType<typeof app.inject>>; health: Awaited<ReturnType<typeof app.inject>> }
        | undefined;
      for (let attempt = 0; attempt < 10 && !shed; attempt += 1) {
        await app.inject('/test/block');
        await new Promise((resolve) => setTimeout(resolve, 25));
        // Side by side, so both meet the same sample.
        // A route with response schemas (none for 503) and one without.
        const [api, health, page, session] = await Promise.all([
          app.inject('/api/campaigns'),
          app.inject('/healthz'),
          app.inject({ url: '/', headers: { accept: 'text/html' } }),
          app.inject('/api/session'),
        ]);
        if (api.statusCode === 503) {
          shed = { api, health };
          expect(page.statusCode).toBe(503);
          expect(page.headers['content-type']).toMatch(/^text\/plain/);
          expect(session.statusCode).toBe(503);
          expect(session.json()).toEqual(api.json());
        }
      }
      expect(shed, 'no request was shed after the loop was held for 300 ms').toBeDefined();
      const { api, health } = shed as NonNullable<typeof shed>;
      expect(api.headers['retry-after']).toBe(String(SHED_RETRY_AFTER_SECONDS));
      expect(api.headers['cache-control']).toBe('no-store');
      expect(api.headers['content-type']).toMatch(/^application\/json/);
      expect(api.json()).toEqual({ message: 'The server is busy; try again in a few seconds.' });
      // Our headers still go out on a shed answer.
      expect(api.headers['x-content-type-options']).toBe('nosniff');
      expect(api.headers['x-request-id']).toMatch(UUID);
      expect(health.statusCode).toBe(200);
      expect(
        logged().some((entry) => entry.msg === 'shedding load' && entry.pressure === 'eventLoopDelay'),
      ).toBe(true);
      // Nothing logged the shedding as a failure, and the route never ran after its request was shed (Fastify
      // warns of a reply sent twice).
      expect(
        logged().filter((entry) => (entry.level as number) >= 40 && entry.msg !== 'shedding load'),
      ).toEqual([]);

      await expect
        .poll(async () => (await app.inject('/api/session')).statusCode, { timeout: 5_000 })
        .toBe(200);
    });

    it('is off unless configured: the same lag sheds nothing', async () => {
      const plain = await server();
      plain.get('/test/block', async () => {
        const until = Date.now() + 300;
        while (Date.now() < until) {
          // Busy.
        }
        return {};
      });
      try {
        for (let attempt = 0; attempt < 3; attempt += 1) {
          await plain.inject('/test/block');
          await new Promise((resolve) => setTimeout(resolve, 25));
          expect((await plain.inject('/api/session')).statusCode).toBe(200);
        }
      } finally {
        await plain.close();
      }
    });
  });
  describe('per-address limits', () => {
    const limits = { apiPerMinute: 3, imageVariantsPerMinute: 2 };
    let app: FastifyInstance;
    beforeAll(async () => {
      // The counts live in the database this file's servers share: start from none.
      await sql`truncate request_limits`.execute(database().db);
      app = await server({ rateLimits: limits });
    }, 60_000);
    afterAll(() => app?.close());

    it('counts /api/* per address, says so in RateLimit headers, and refuses past it with 429', async () => {
      const answers = [];
      for (let i = 0; i < 4; i += 1) answers.push(await app.inject('/api/session'));
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
      for (const answer of answers) expect(answer.headers['ratelimit-policy']).toBe('"api";q=3;w=60');
      expect(
        answers.map((answer) => /^"api";r=(\d+);t=\d+$/.exec(String(answer.headers.ratelimit))?.[1]),
      ).toEqual(['2', '1', '0', '0']);
      const refused = answers[3] as (typeof answers)[number];
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThanOrEqual(1);
      expect(wait).toBeLessThanOrEqual(60);
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.json()).toEqual({
        message: `Too many requests from this address; try again in ${wait} s.`,
      });
      // One security event, for the refusal alone, naming the address and the limit.
      expect(securityEvents()).toEqual([{ event: 'rate-limited', address: '127.0.0.1', limit: 'api' }]);
      // Another address is not held back; pages and /healthz are not counted.
      expect((await app.inject({ url: '/api/session', remoteAddress: '192.0.2.7' })).statusCode).toBe(200);
      expect((await app.inject('/healthz')).statusCode).toBe(200);
      const page = await app.inject({ url: '/', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.headers.ratelimit).toBeUndefined();
    });

    it('counts renders of new image variants only: a cached one is still served past the limit', async () => {
      const from = { remoteAddress: '198.51.100.4' };
      const first = await app.inject({ url: '/_ipx/w_10/one.png', ...from });
      expect(first.statusCode).toBe(200);
      expect(first.headers['ratelimit-policy']).toBe('"image-variants";q=2;w=60');
      expect((await app.inject({ url: '/_ipx/w_20/one.png', ...from })).statusCode).toBe(200);
      const refused = await app.inject({ url: '/_ipx/w_30/one.png', ...from });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.json().message).toMatch(
        /^Too many new image sizes from this address; try again in \d+ s\.$/,
      );
      expect(securityEvents()).toEqual([
        { event: 'rate-limited', address: '198.51.100.4', limit: 'image-variants' },
      ]);
      const again = await app.inject({ url: '/_ipx/w_10/one.png', ...from });
      expect(again.statusCode).toBe(200);
      expect(again.headers.ratelimit).toBeUndefined();
      // The refusal was not kept as the variant's answer: another address gets it rendered.
      expect(
        (await app.inject({ url: '/_ipx/w_30/one.png', remoteAddress: '198.51.100.5' })).statusCode,
      ).toBe(200);
    });

    it('keeps the counts in the database: a second server on it meets the limits the first one counted', async () => {
      const other = await server({ rateLimits: limits });
      try {
        const from = { remoteAddress: '203.0.113.50' };
        const api = [];
        for (const instance of [app, other, app, other])
          api.push(await instance.inject({ url: '/api/session', ...from }));
        expect(api.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 429]);
        expect(api.map((answer) => answer.headers.ratelimit)).toEqual([
          expect.stringMatching(/^"api";r=2;t=\d+$/),
          expect.stringMatching(/^"api";r=1;t=\d+$/),
          expect.stringMatching(/^"api";r=0;t=\d+$/),
          expect.stringMatching(/^"api";r=0;t=\d+$/),
        ]);
        const images = [];
        for (const [instance, width] of [
          [app, 41],
          [other, 42],
          [app, 43],
        ] as const)
          images.push((await instance.inject({ url: `/_ipx/w_${width}/one.png`, ...from })).statusCode);
        expect(images).toEqual([200, 200, 429]);
        const counted = await database()
          .db.selectFrom('requestLimits')
          .select(['key', 'points'])
          .where('key', 'like', '%203.0.113.50')
          .orderBy('key')
          .execute();
        expect(counted).toEqual([
          { key: 'requests:api 203.0.113.50', points: 4 },
          { key: 'requests:image-variants 203.0.113.50', points: 3 },
        ]);
      } finally {
        await other.close();
      }
    });
  });
});
