// @vitest-environment happy-dom
/**
 * The report commands as a developer runs them (issue 23): a 500 report stored by the API in an embedded
 * database folder, then `npm run reports -- --json` groups it, `npm run replay -- <id>` drives the app machine
 * to the reported state (exit 0), a report whose state the events do not reach exits 1, `--test` writes a
 * regression test into tests/replays/ that fails while the bug is there, and a database held by a running
 * server is a clear message.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../api/database/open';
import type { ReportBody } from '../api/types';
import { apiClient } from './support/apiHarness';
import { recordFailedCampaignVisit } from './support/recordReport';

const ROOT = path.resolve(import.meta.dirname, '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a Node script from the project root, as `npm run` does. */
function node(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      { cwd: ROOT, env: { ...process.env, DATABASE_URL: '', REPORTS_URL: '', ...env }, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({
          code: error ? Number(error.code ?? 1) : 0,
          stdout: String(stdout),
          stderr: String(stderr),
        }),
    );
  });
}

/** A command of scripts/reports/ on the test's data folder. */
const run = (script: string, args: string[], env: Record<string, string>) =>
  node(['--import', 'tsx', `scripts/reports/${script}.ts`, ...args], env);

let dataDir: string;
let report: ReportBody;
let id: string;
const written: string[] = [];

beforeAll(async () => {
  ({ report } = await recordFailedCampaignVisit());
  vi.unstubAllGlobals();
  dataDir = await mkdtemp(path.join(tmpdir(), 'campaign-web-reports-cli-'));
  const database = await openDatabase({ kind: 'pglite', dir: path.join(dataDir, 'pglite') });
  const client = await apiClient(database);
  try {
    const stored = await client.request({ method: 'POST', url: '/api/reports', payload: report });
    expect(stored.statusCode).toBe(201);
    ({ id } = stored.json() as { id: string });
  } finally {
    await client.close();
    await database.close();
  }
}, 120_000);

afterEach(async () => {
  for (const file of written.splice(0)) await rm(file, { force: true });
});

afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('npm run reports', () => {
  it('groups the stored error by error and build, naming the report to replay', async () => {
    const listed = await run('reports', ['--json'], { DATA_DIR: dataDir });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const summary = JSON.parse(listed.stdout);
    expect(summary).toMatchObject({
      reports: 1,
      errors: [
        {
          error: 'Error: The demo API failed unexpectedly.',
          status: 500,
          buildId: 'build-1',
          count: 1,
          routes: [report.route.path],
          latestId: id,
        },
      ],
    });
    expect(summary.recent[0]).toMatchObject({ id, state: report.state, events: report.events });
  }, 120_000);

  it('says how to read reports while a server holds the embedded database', async () => {
    const database = await openDatabase({ kind: 'pglite', dir: path.join(dataDir, 'pglite') });
    try {
      const listed = await run('reports', [], { DATA_DIR: dataDir });
      expect(listed.code).toBe(2);
      expect(listed.stderr).toMatch(/in use by process/);
      expect(listed.stderr).toMatch(/REPORTS_URL=http:\/\/<host>:<port> and the same REPORTS_TOKEN/);
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('npm run replay', () => {
  it('replays a stored report by id to the reported state, printing each state', async () => {
    const replayed = await run('replay', [id], { DATA_DIR: dataDir });
    expect(replayed.stderr).toBe('');
    expect(replayed.stdout).toContain(
      `Report ${id}: error on ${report.route.path} (${report.route.name}), build build-1`,
    );
    expect(replayed.stdout).toContain('500 Error: The demo API failed unexpectedly.');
    expect(replayed.stdout).toMatch(/\d+\. nav\.go\n/);
    expect(replayed.stdout).toMatch(/\d+\. xstate\.error\.actor\.loadPage\n/);
    expect(replayed.stdout).toContain('The replay ends in the reported state.');
    expect(replayed.code).toBe(0);
  }, 120_000);

  it('exits 1 when a saved report ends elsewhere than its events lead', async () => {
    const file = path.join(dataDir, 'elsewhere.json');
    await writeFile(file, JSON.stringify({ ...report, state: { navigation: 'idle', errors: 'none' } }));
    const replayed = await run('replay', [file], {});
    expect(replayed.stdout).toContain('The replay does NOT end in the reported state.');
    expect(replayed.code).toBe(1);
  }, 120_000);

  it('exits 2 with a clear message for an unknown id', async () => {
    const replayed = await run('replay', ['no-such-report'], { DATA_DIR: dataDir });
    expect(replayed.stderr).toContain('No report with id no-such-report.');
    expect(replayed.code).toBe(2);
  }, 120_000);

  it('--test writes a regression test into tests/replays/ that fails while the events still end there', async () => {
    const name = id.replace(/[^A-Za-z0-9_-]/g, '_');
    const testFile = path.join(ROOT, 'tests', 'replays', `${name}.test.ts`);
    written.push(testFile, path.join(ROOT, 'tests', 'replays', `${name}.json`));
    const replayed = await run('replay', [id, '--test'], { DATA_DIR: dataDir });
    expect(replayed.stdout).toContain(`Wrote tests/replays/${name}.test.ts`);
    expect(existsSync(testFile)).toBe(true);

    const regression = await node([
      path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      path.relative(ROOT, testFile),
    ]);
    expect(`${regression.stdout}${regression.stderr}`).toContain(
      `report ${name}: the recorded events no longer end in the reported state`,
    );
    expect(regression.code).toBe(1);
  }, 180_000);
});
