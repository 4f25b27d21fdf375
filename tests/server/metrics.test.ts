// @vitest-environment node
/**
 * The server's Prometheus metrics (server/plugins/metrics.ts): off unless configured, invisible without the token,
 * labelled by route pattern (never by URL), fed by the routes they count.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { type AddressInfo, connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportBody } from '../../api/types';
import { buildServer } from '../../server/app';
import { readServerEnvironment } from '../../server/environment';
import {
  hasBearer,
  installMetrics,
  isMetricsHost,
  metricsConfigFrom,
  serveMetrics,
  TOKEN_GUESSES,
} from '../../server/plugins/metrics';
import { sampleVitals } from '../support/reportFixture';

const TOKEN = 'metrics-token-for-tests-0123456789';
const INDEX = '<!doctype html><html><head></head><body><div id="root"></div></body></html>';

let root: string;
let plain: FastifyInstance;
let measured: FastifyInstance;

async function serverWith(name: string, metrics?: Parameters<typeof buildServer>[0]['metrics']) {
  const dist = path.join(root, 'dist');
  return buildServer({
    distDir: dist,
    dataDir: path.join(root, `data-${name}`),
    imagesDir: path.join(root, 'images'),
    imageCacheDir: path.join(root, `image-cache-${name}`),
    headers: { iconFallbackUrl: 'https://api.iconify.design', hsts: false },
    ...(metrics ? { metrics } : {}),
  });
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'campaign-web-metrics-'));
  await mkdir(path.join(root, 'dist'), { recursive: true });
  await writeFile(path.join(root, 'dist/index.html'), INDEX);
  // One after the other: opening two embedded databases at once can outlast the plugin timeout on a busy machine.
  plain = await serverWith('plain');
  measured = await serverWith('measured', { port: null, token: TOKEN });
}, 180_000);

afterAll(async () => {
  await Promise.all([plain?.close(), measured?.close()]);
  await rm(root, { recursive: true, force: true });
});

const metricsOf = (env: Record<string, string>) => metricsConfigFrom(readServerEnvironment(env));

const scrape = (app: FastifyInstance, authorization?: string) =>
  app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

describe('configuration', () => {
  it('is off without METRICS_PORT and METRICS_TOKEN, and refuses a port that is not one', () => {
    expect(metricsOf({})).toEqual({ port: null, host: '127.0.0.1', token: null });
    expect(metricsOf({ METRICS_PORT: '9464', METRICS_TOKEN: TOKEN })).toEqual({
      port: 9464,
      host: '127.0.0.1',
      token: TOKEN,
    });
    expect(metricsOf({ METRICS_PORT: '9464', METRICS_HOST: '10.0.0.5' }).host).toBe('10.0.0.5');
    expect(() => metricsOf({ METRICS_PORT: 'nine' })).toThrow(/METRICS_PORT="nine"/);
    expect(() => metricsOf({ METRICS_PORT: '70000' })).toThrow(
      'METRICS_PORT="70000" is not valid: expected a whole number from 1 to 65535.',
    );
  });

  it('refuses a token shorter than 32 characters', () => {
    expect(() => metricsOf({ METRICS_TOKEN: 't' })).toThrow(
      'METRICS_TOKEN is too short: 1 characters, at least 32 are needed',
    );
    expect(metricsOf({ METRICS_TOKEN: 'x'.repeat(32) }).token).toBe('x'.repeat(32));
  });

  it('takes a Host on the metrics port that names this machine, never another site’s name', () => {
    for (const host of [
      '127.0.0.1:9464',
      'localhost:9464',
      '[::1]:9464',
      '10.0.0.5',
      'metrics.internal:9464',
    ])
      expect(isMetricsHost(host, 'metrics.internal')).toBe(true);
    for (const host of [
      undefined,
      '',
      'evil.example:9464',
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      'a b',
    ])
      expect(isMetricsHost(host, '127.0.0.1')).toBe(false);
  });

  it('compares bearer tokens whole', () => {
    expect(hasBearer(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasBearer(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasBearer(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(hasBearer(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(hasBearer(TOKEN, TOKEN)).toBe(false);
    expect(hasBearer(undefined, TOKEN)).toBe(false);
  });
});

describe('/metrics on the server', () => {
  it('is not there by default (404, no metrics text)', async () => {
    const response = await scrape(plain, `Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('http_request_duration_seconds');
  });

  it('stops looking at the tokens of an address that keeps guessing: then its right one gets the 404 too', async () => {
    const from = (remoteAddress: string, authorization: string) =>
      measured.inject({ method: 'GET', url: '/metrics', remoteAddress, headers: { authorization } });
    for (let i = 0; i < TOKEN_GUESSES.points; i += 1)
      expect((await from('192.0.2.66', `Bearer guess-${i}`)).statusCode).toBe(404);
    expect((await from('192.0.2.66', `Bearer ${TOKEN}`)).statusCode).toBe(404);
    expect((await from('192.0.2.67', `Bearer ${TOKEN}`)).statusCode).toBe(200);
  });

  it('answers 404 without the token or with a wrong one, and the metrics with it', async () => {
    for (const authorization of [undefined, 'Bearer wrong', `Basic ${TOKEN}`]) {
      const refused = await scrape(measured, authorization);
      expect(refused.statusCode).toBe(404);
      expect(refused.body).not.toContain('http_request');
    }
    const response = await scrape(measured, `Bearer ${TOKEN}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it('labels request durations by route pattern and status, never by URL', async () => {
    const junk = `/api/${randomBytes(12).toString('hex')}`;
    const spa = `/no-such-page-${randomBytes(12).toString('hex')}`;
    expect((await measured.inject({ method: 'GET', url: '/api/campaigns/1' })).statusCode).toBe(200);
    expect((await measured.inject({ method: 'GET', url: junk })).statusCode).toBe(404);
    await measured.inject({ method: 'GET', url: spa, headers: { accept: 'text/html' } });
    const { body } = await scrape(measured, `Bearer ${TOKEN}`);
    expect(body).toMatch(
      /http_request_duration_seconds_count\{method="GET",route="\/api\/campaigns\/:id",status="200"\} [1-9]/,
    );
    expect(body).not.toContain(junk.slice(5));
    expect(body).not.toContain(spa.slice(1));
    expect(body).not.toContain('/api/campaigns/1"');
  });

  it('counts stored reports by kind, and sign-in refusals', async () => {
    const report: ReportBody = sampleVitals(
      { route: { name: 'home', path: '/' }, vitals: [{ name: 'LCP', value: 1200, rating: 'good' }] },
      Date.now(),
    );
    const sent = await measured.inject({
      method: 'POST',
      url: '/api/reports',
      headers: {
        'content-type': 'application/json',
        origin: 'http://localhost',
        'sec-fetch-site': 'same-origin',
      },
      payload: report,
    });
    expect(sent.statusCode).toBe(201);
    let refused = 0;
    for (let attempt = 0; attempt < 30 && refused === 0; attempt += 1) {
      const response = await measured.inject({
        method: 'POST',
        url: '/api/session',
        headers: {
          'content-type': 'application/json',
          origin: 'http://localhost',
          'sec-fetch-site': 'same-origin',
        },
        payload: { email: 'nobody@example.com', password: 'wrong-password' },
      });
      if (response.statusCode === 429) refused += 1;
    }
    expect(refused).toBe(1);
    // The same refusal through the no-JavaScript form counts too.
    const form = await measured.inject({
      method: 'POST',
      url: '/login',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'http://localhost',
        'sec-fetch-site': 'same-origin',
      },
      payload: 'email=nobody%40example.com&password=wrong-password',
    });
    expect(form.statusCode).toBe(429);
    const { body } = await scrape(measured, `Bearer ${TOKEN}`);
    expect(body).toMatch(/^reports_received_total\{kind="vitals"\} 1$/m);
    expect(body).toMatch(/^sign_in_refusals_total 2$/m);
    // PGlite has no pool: the pool gauge has no samples.
    expect(body).not.toMatch(/^db_pool_clients\{/m);
    expect(body).toMatch(/^image_renders\{state="in_flight"\} 0$/m);
    expect(body).toMatch(/^image_renders\{state="queued"\} 0$/m);
  }, 120_000);
});

describe('security events of /metrics', () => {
  it('writes one per wrong token and one per refusal after the guesses are spent, never what was sent', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).split('\n').filter(Boolean));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', stream } });
    installMetrics(app, { port: null, token: TOKEN });
    try {
      const from = (authorization?: string) =>
        app.inject({
          method: 'GET',
          url: '/metrics',
          remoteAddress: '192.0.2.70',
          headers: authorization ? { authorization } : {},
        });
      expect((await from()).statusCode).toBe(404);
      for (let i = 1; i < TOKEN_GUESSES.points; i += 1)
        expect((await from(`Bearer guess-${i}`)).statusCode).toBe(404);
      expect((await from(`Bearer ${TOKEN}`)).statusCode).toBe(404);
      const events = lines
        .map((line) => JSON.parse(line) as { msg: string; security?: unknown })
        .filter((entry) => entry.msg === 'security event')
        .map((entry) => entry.security);
      expect(events).toEqual([
        ...Array(TOKEN_GUESSES.points).fill({
          event: 'token.refused',
          address: '192.0.2.70',
          token: 'metrics',
        }),
        { event: 'rate-limited', address: '192.0.2.70', limit: 'metrics-token' },
      ]);
      expect(lines.join('\n')).not.toMatch(/guess-|metrics-token-for-tests/);
      // The right token from an address that did not guess: metrics, and no event.
      const scraped = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(scraped.statusCode).toBe(200);
      expect(lines.filter((line) => line.includes('security event'))).toHaveLength(TOKEN_GUESSES.points + 1);
    } finally {
      await app.close();
    }
  });
});

describe('metrics on their own port', () => {
  it('serves GET /metrics there and nothing else', async () => {
    const app = Fastify();
    const registry = installMetrics(
      app,
      { port: 0, token: null },
      {
        databasePool: () => ({ total: 4, idle: 3, waiting: 0 }),
      },
    );
    app.get('/things/:id', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/things/42' });
    // No route on the app's own port: the token is not set.
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const server = await serveMetrics(registry, 0, '127.0.0.1');
    try {
      const { port } = server.address() as AddressInfo;
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      const body = await response.text();
      expect(body).toContain('route="/things/:id"');
      expect(body).toMatch(/^db_pool_clients\{state="idle"\} 3$/m);
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404);
      // A page whose name was rebound to this address sends its own name: refused before anything is read.
      const rebound = await rawRequest(
        port,
        'GET /metrics HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n',
      );
      expect(rebound).toMatch(/^HTTP\/1\.1 421 /);
      expect(rebound).not.toContain('http_request_duration_seconds');
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await app.close();
    }
  });
});

/** One request written byte for byte (fetch cannot send another Host), and the whole answer. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.on('data', (chunk) => (data += chunk.toString('latin1')));
    socket.on('end', () => resolve(data));
    socket.on('error', reject);
  });
}
