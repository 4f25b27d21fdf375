// What a refused sign-in costs as a client sees it: POST /api/session over loopback to a real API
// process (api/main.ts) on a folder database, for a wrong password of a seeded demo account, an unknown email, an
// account whose argon2id hash this server made (as a sign-up or a re-hash would), and one still holding the seed's
// old scrypt hash (matched by nothing, checked against the decoy). If the time told one case from another, an
// attacker could list accounts, or the old ones; so the figures to read are the ratios, side by side in one run.
// Figures, never pass/fail (timed tests are not allowed: tests/api/accounts/refusalCost.test.ts counts the work).
//   node --import tsx scripts/bench/bench-refusals.ts [rounds=20]
// The limits are raised for the run (the slowdown would add its own waits after 10 failures of an account).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import { openDatabase } from '../../api/database/open.ts';
import { Passwords } from '../../api/passwords.ts';

const rounds = Number(process.argv[2] ?? 20);
const WARM_UP = 3;
/** The seed's hash of the demo accounts before migration 0005 (scrypt, N=2^14). */
const OLD_SCRYPT =
  'scrypt$b2a86f5da897b7b532f3de2399551c11$ef2e4c7e20b2b49220659ae166ca72add99888e7d58b35ae76a3da7b70f3cdce';
const RAISED = '1000000';

const cases: [name: string, email: string][] = [
  ['unknown email', 'nobody@example.com'],
  ['seeded account (demo)', 'demo@example.com'],
  ['argon2id account made here', 'argon@example.com'],
  ['account on the old scrypt hash', 'legacy@example.com'],
];

const scratch = await mkdtemp(path.join(tmpdir(), 'campaign-web-bench-refusals-'));
let child: ChildProcess | undefined;
try {
  // The database as a server that has run for a while holds it: the seed, plus two accounts of other origins.
  const database = await openDatabase(
    { kind: 'pglite', dir: path.join(scratch, 'pglite') },
    { migrate: true, demoData: true },
  );
  const made = await new Passwords().hash('argon-password');
  await database.db
    .insertInto('users')
    .values([
      {
        id: 'bench-argon',
        email: 'argon@example.com',
        emailKey: 'argon@example.com',
        displayName: 'Argon',
        passwordHash: made,
      },
      {
        id: 'bench-legacy',
        email: 'legacy@example.com',
        emailKey: 'legacy@example.com',
        displayName: 'Legacy',
        passwordHash: OLD_SCRYPT,
      },
    ])
    .execute();
  await database.close();

  const port = await getPort();
  const server = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: scratch,
      PORT: String(port),
      HOST: '127.0.0.1',
      SIGN_IN_FAILURES_PER_ADDRESS: RAISED,
      SIGN_IN_FAILURES_PER_ACCOUNT: RAISED,
      SIGN_IN_SLOWDOWN_AFTER: RAISED,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = server;
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`API did not start in 120 s:\n${output}`)), 120_000);
    const listen = (chunk: Buffer) => {
      output += chunk;
      if (!output.includes('listening on')) return;
      clearTimeout(timer);
      resolve();
    };
    server.stdout?.on('data', listen);
    server.stderr?.on('data', listen);
    server.once('exit', (code) => reject(new Error(`API exited (${code}):\n${output}`)));
  });
  const base = `http://127.0.0.1:${port}`;

  const refuse = async (email: string): Promise<number> => {
    const start = performance.now();
    const response = await fetch(`${base}/api/session`, {
      method: 'POST',
      headers: { origin: base, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: 'a wrong password' }),
    });
    await response.arrayBuffer();
    const ms = performance.now() - start;
    if (response.status !== 401) throw new Error(`${email}: expected 401, got ${response.status}`);
    return ms;
  };

  const before = loadavg()[0] ?? Number.NaN;
  // The first refusal of each kind pays for one-off work (the decoy hash, query plans): not measured.
  for (let i = 0; i < WARM_UP; i++) for (const [, email] of cases) await refuse(email);
  const samples = cases.map(() => [] as number[]);
  // Interleaved, each round in turn and starting with the next case each time: a busy moment of the machine,
  // or whatever the first request of a round meets, weighs on every case alike.
  for (let round = 0; round < rounds; round++)
    for (let step = 0; step < cases.length; step++) {
      const index = (round + step) % cases.length;
      samples[index]?.push(await refuse(cases[index]?.[1] ?? ''));
    }
  const after = loadavg()[0] ?? Number.NaN;

  const median = (xs: number[]) => {
    const sorted = [...xs].sort((x, y) => x - y);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2
      ? (sorted[middle] ?? Number.NaN)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  };
  const medians = samples.map(median);
  const unknown = medians[0] ?? Number.NaN;
  console.log(
    `\nRefused sign-in (POST /api/session, 401) over loopback, median of ${rounds} each, interleaved, order rotated ` +
      `(load average ${before.toFixed(1)} → ${after.toFixed(1)}):`,
  );
  for (const [index, [name]] of cases.entries()) {
    const ms = medians[index] ?? Number.NaN;
    const sorted = [...(samples[index] ?? [])].sort((x, y) => x - y);
    console.log(
      `  ${name.padEnd(32)} ${ms.toFixed(1).padStart(6)} ms  (min ${sorted[0]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)})` +
        `   ×${(ms / unknown).toFixed(2)} of an unknown email`,
    );
  }
  const spread = Math.max(...medians) / Math.min(...medians);
  console.log(`  slowest median / fastest median: ×${spread.toFixed(2)}`);
} finally {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await rm(scratch, { recursive: true, force: true });
}
