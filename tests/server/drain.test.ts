// @vitest-environment node
/**
 * SIGTERM drains the production server (server/start.ts), as a real process (`node --import tsx
 * server/main.ts`, the same start as dist-server/main.mjs): /healthz answers 503 at once, so a proxy stops
 * sending; a slow request in flight finishes; then the process exits 0.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/apiHarness';

const STARTUP_MS = 90_000;
let root: string;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'campaign-web-drain-'));
  await mkdir(path.join(root, 'dist/_app/builds'), { recursive: true });
  await writeFile(path.join(root, 'dist/index.html'), '<!doctype html><html><body>app</body></html>');
  await writeFile(path.join(root, 'dist/_app/builds/latest.json'), '{"id":"drain","timestamp":1}');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('SIGTERM', { timeout: 2 * STARTUP_MS }, () => {
  it('answers 503 on /healthz while a slow request finishes, then exits 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DIST_DIR: path.join(root, 'dist'),
        DATA_DIR: path.join(root, 'data'),
        DATABASE_URL: '',
        // Every API answer waits 5 s; /healthz is not the API's.
        DEMO_API_DELAY_MS: '5000',
        DRAIN_DELAY_MS: '3000',
        SHUTDOWN_GRACE_MS: '20000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await expect
        .poll(() => output, { timeout: STARTUP_MS, interval: 100 })
        .toContain('Server listening at');
      expect((await fetch(`${base}/healthz`)).status).toBe(200);

      let settled = false;
      const inFlight = fetch(`${base}/api/campaigns`).then(async (response) => {
        settled = true;
        return { status: response.status, body: await response.json() };
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      child.kill('SIGTERM');

      // On a new connection: the port is still open while draining, and says so.
      await expect
        .poll(async () => (await fetch(`${base}/healthz`)).status, { timeout: 2_500, interval: 50 })
        .toBe(503);
      const health = await fetch(`${base}/healthz`);
      expect(health.headers.get('retry-after')).toBe('1');
      expect(health.headers.get('connection')).toBe('close');
      expect(await health.json()).toEqual({ status: 'draining', buildId: 'drain' });
      expect(settled, 'the slow request was still in flight while /healthz said 503').toBe(false);

      const answer = await inFlight;
      expect(answer.status, output).toBe(200);
      expect(answer.body.campaigns.length).toBeGreaterThan(0);
      expect(await exited).toBe(0);
      await expect(fetch(`${base}/healthz`)).rejects.toThrow();
      expect(output).toContain('"signal":"SIGTERM"');
      expect(output).not.toMatch(/"level":50/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
