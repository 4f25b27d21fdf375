// @vitest-environment happy-dom
/**
 * The report commands as a developer runs them: a 500 report stored by the API in an embedded
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
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../api/database/open';
import type { ReportBody } from '../../../api/types';
import { apiClient, WITH_DEMO_DATA } from '../../support/apiHarness';
import { recordFailedCampaignVisit } from '../../support/recordReport';
import { BUILD_ID, sampleVitals } from '../../support/reportFixture';

const ROOT = path.resolve(import.meta.dirname, '../../..');

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
  const database = await openDatabase({ kind: 'pglite', dir: path.join(dataDir, 'pglite') }, WITH_DEMO_DATA);
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
          buildId: BUILD_ID,
          count: 1,
          routes: [report.route.path],
          latestId: id,
        },
      ],
    });
    expect(summary.recent[0]).toMatchObject({ id, state: report.state, events: report.events });
  }, 120_000);

  it('says how to read reports while a server holds the embedded database', async () => {
    const database = await openDatabase(
      { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
      WITH_DEMO_DATA,
    );
    try {
      const listed = await run('reports', [], { DATA_DIR: dataDir });
      expect(listed.code).toBe(2);
      expect(listed.stderr).toMatch(/in use by another server/);
      expect(listed.stderr).toMatch(/REPORTS_URL=http:\/\/<host>:<port> and the same REPORTS_TOKEN/);
    } finally {
      await database.close();
    }
  }, 120_000);
});

describe('npm run reports, web vitals', () => {
  beforeAll(async () => {
    const database = await openDatabase(
      { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
      WITH_DEMO_DATA,
    );
    const client = await apiClient(database);
    const samples = [
      sampleVitals({ vitals: [{ name: 'LCP', value: 812.5, rating: 'good' }] }, Date.now()),
      sampleVitals({ vitals: [{ name: 'LCP', value: 2600.4, rating: 'needs-improvement' }] }, Date.now()),
      sampleVitals(
        {
          route: { name: null, path: '/nowhere' },
          vitals: [{ name: 'CLS', value: 0.25, rating: 'needs-improvement' }],
        },
        Date.now(),
      ),
    ];
    try {
      for (const sample of samples) {
        const res = await client.request({ method: 'POST', url: '/api/reports', payload: sample });
        expect(res.statusCode).toBe(201);
      }
    } finally {
      await client.close();
      await database.close();
    }
  }, 120_000);

  it('labels them self-reported and shows how many samples each p75 rests on', async () => {
    const listed = await run('reports', [], { DATA_DIR: dataDir });
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(
      'Web vitals, 75th percentile per route, (n) samples it rests on. Self-reported: any visitor can send ' +
        'made-up figures; the API takes at most a few samples per address and route per window.',
    );
    // A route by its name, a path that matches none by the path; CLS is unitless.
    expect(listed.stdout).toContain(`  ${'campaign'.padEnd(20)} LCP 2600 ms (2)\n`);
    expect(listed.stdout).toContain(`  ${'/nowhere'.padEnd(20)} CLS 0.250 (1)\n`);
  }, 120_000);
});

describe('npm run replay', () => {
  it('replays a stored report by id to the reported state, printing each state', async () => {
    const replayed = await run('replay', [id], { DATA_DIR: dataDir });
    expect(replayed.stderr).toBe('');
    expect(replayed.stdout).toContain(
      `Report ${id}: error on ${report.route.path} (${report.route.name}), build ${BUILD_ID}`,
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

describe('a report made to attack the developer who reads it', () => {
  // Stored straight into the table, as no API would take it: every field holds terminal escapes (erase the
  // line, move up, set the title, a hyperlink), a C1 CSI, bidi overrides, line separators and newlines.
  const ATTACK =
    '\u001b[2K\u001b[1A\u001b]0;pwned\u0007\u001b]8;;https://evil.example\u001b\\x\u009b31m\u202e\u2066\u2028\r\nAll good';
  const hostileId = 'hostile-report';
  /** The same report saved as a file, for `npm run replay -- <file>`, which reads it as it is. */
  let hostileFile: string;
  beforeAll(async () => {
    const hostile: ReportBody = {
      ...report,
      buildId: ATTACK,
      route: { name: ATTACK, path: `/${ATTACK}` },
      state: { [ATTACK]: ATTACK },
      events: [{ type: ATTACK }, ...report.events],
      error: { name: ATTACK, message: ATTACK, status: 500 },
    };
    hostileFile = path.join(dataDir, 'hostile.json');
    // A file holds what its writer put there: in a report's shape (else the replay refuses it, tested below),
    // with the attack in every text field.
    await writeFile(hostileFile, JSON.stringify({ ...hostile, eventsDropped: 5 }));
    const database = await openDatabase(
      { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
      WITH_DEMO_DATA,
    );
    try {
      await sql`insert into reports (id, received_at, kind, build_id, route_name, path, error_name, error_message, error_status, body)
        values (${hostileId}, now(), 'error', ${ATTACK}, ${ATTACK}, ${`/${ATTACK}`}, ${ATTACK}, ${ATTACK}, 500, ${JSON.stringify(hostile)}::jsonb)`.execute(
        database.db,
      );
    } finally {
      await database.close();
    }
  }, 120_000);

  /** Every character a terminal acts on or reorders: C0 but newline, DEL and C1, separators, bidi controls. */
  const ACTIVE =
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what must be absent.
    /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

  it.each([
    ['npm run reports', 'reports', () => []],
    ['npm run reports -- --json', 'reports', () => ['--json']],
    ['npm run replay', 'replay', () => [hostileId]],
    ['npm run replay -- <saved file>', 'replay', () => [hostileFile]],
  ])(
    '%s prints it with every control and bidi character as a visible escape',
    async (_name, script, argsOf: () => string[]) => {
      const args = argsOf();
      const printed = await run(script, args, { DATA_DIR: dataDir });
      expect(printed.stdout).toContain(script === 'replay' ? '\\x1b[2K' : '1b');
      expect(printed.stdout).not.toMatch(ACTIVE);
      expect(printed.stderr).not.toMatch(ACTIVE);
      if (args.includes(hostileFile)) {
        expect(printed.stdout).toContain('the report dropped its 5 oldest events');
      }
      if (args.includes('--json')) {
        const parsed = JSON.parse(printed.stdout) as { recent: { id: string; buildId: string }[] };
        expect(parsed.recent.find((stored) => stored.id === hostileId)?.buildId).toBe(ATTACK);
      }
    },
    120_000,
  );

  it('npm run replay -- <file> says a file is not JSON without printing its text raw', async () => {
    // V8's SyntaxError quotes the text around the fault: here, the escapes themselves.
    const file = path.join(dataDir, 'broken.json');
    await writeFile(file, `{"buildId": ${ATTACK}}`);
    const replayed = await run('replay', [file], {});
    expect(replayed.code).toBe(2);
    expect(replayed.stderr).toContain('is not valid JSON');
    expect(replayed.stderr).toContain('\\x1b[2K');
    expect(replayed.stderr).not.toMatch(ACTIVE);
  }, 120_000);

  it('npm run replay -- <file> says a JSON file that is not a report is not one, naming the field, no stack', async () => {
    const file = path.join(dataDir, 'not-a-report.json');
    // A count of dropped events that is not one, and a path that is not text.
    await writeFile(file, JSON.stringify({ ...report, route: { path: 42 }, eventsDropped: '\r\u20285' }));
    const replayed = await run('replay', [file], {});
    expect(replayed.code).toBe(2);
    expect(replayed.stderr).toContain('is not a report');
    expect(replayed.stderr).toContain('/route');
    expect(replayed.stderr).not.toContain('    at ');
    expect(replayed.stderr).not.toMatch(ACTIVE);
  }, 120_000);

  it('npm run replay -- <id> --test writes no test for a report the machine does not reproduce', async () => {
    const testFile = path.join(ROOT, 'tests', 'replays', `${hostileId}.test.ts`);
    written.push(testFile, path.join(ROOT, 'tests', 'replays', `${hostileId}.json`));
    const replayed = await run('replay', [hostileId, '--test'], { DATA_DIR: dataDir });
    expect(replayed.code).toBe(1);
    expect(replayed.stderr).toContain(
      'No regression test written: the replay does not reach the reported state',
    );
    expect(existsSync(testFile)).toBe(false);
  }, 120_000);
});

describe('a row written to the table by something other than the API', () => {
  beforeAll(async () => {
    const database = await openDatabase(
      { kind: 'pglite', dir: path.join(dataDir, 'pglite') },
      WITH_DEMO_DATA,
    );
    try {
      // It parses, but it is no report: the summary would read `route.path` of null.
      await sql`insert into reports (id, received_at, kind, build_id, path, body)
        values ('wrong-shape', now(), 'error', 'dev', '/', ${JSON.stringify({ ...report, route: null })}::jsonb)`.execute(
        database.db,
      );
    } finally {
      await database.close();
    }
  }, 120_000);

  it('npm run reports skips it with one warning and lists the rest', async () => {
    const listed = await run('reports', ['--json'], { DATA_DIR: dataDir });
    expect(listed.stderr).toBe('[demo-api] report wrong-shape skipped: its stored body is not a report.\n');
    expect(listed.code).toBe(0);
    const { recent } = JSON.parse(listed.stdout) as { recent: { id: string }[] };
    expect(recent.map((stored) => stored.id)).toContain(id);
    expect(recent.map((stored) => stored.id)).not.toContain('wrong-shape');
  }, 120_000);
});
