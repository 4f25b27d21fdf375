// @vitest-environment node
// The API as real server processes (api/main.ts): an acknowledged write survives kill -9 in
// both database modes, two processes share one PostgreSQL (a session made on one is valid on the
// other) but never one embedded folder (not even from two PID namespaces, as two containers on one volume
// are), and a start-up failure is a clear message and a non-zero exit.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backends, freePort, freshPostgresDatabase, POSTGRES_URL } from '../support/apiHarness';
import { CAN_UNSHARE, inNamespace, NO_UNSHARE_REASON } from '../support/namespaces';

const STARTUP_MS = 90_000;
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Server {
  base: string;
  child: ChildProcess;
  output: () => string;
}

/** The server as a process; with `ownNamespace`, as pid 1 of a PID namespace of its own (as in a container). */
function run(
  env: Record<string, string>,
  ownNamespace = false,
): {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
  /** 'listening' once it listens, or its exit code if it exits first. */
  outcome: Promise<'listening' | number | null>;
} {
  const argv = [process.execPath, '--import', 'tsx', 'api/main.ts'];
  const [command, ...args] = ownNamespace ? inNamespace(argv) : argv;
  const child = spawn(command as string, args, {
    env: { ...process.env, HOST: '127.0.0.1', DATABASE_URL: '', DATA_DIR: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let listening: (value: 'listening') => void = () => {};
  const listened = new Promise<'listening'>((resolve) => {
    listening = resolve;
  });
  child.stdout?.on('data', (chunk) => {
    output += chunk;
    if (output.includes('listening on')) listening('listening');
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  return { child, output: () => output, exited, outcome: Promise.race([listened, exited]) };
}

async function start(env: Record<string, string>, ownNamespace = false): Promise<Server> {
  const port = String(await freePort());
  const { child, output, exited } = run({ ...env, PORT: port }, ownNamespace);
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output().includes('listening on')) resolve();
      else setTimeout(check, 50);
    };
    check();
    // Only to reject `ready` early: `exited` never rejects, and `ready` is awaited below.
    void exited.then((code) => reject(new Error(`server exited (${code}) before listening:\n${output()}`)));
  });
  await ready;
  return { base: `http://127.0.0.1:${port}`, child, output };
}

async function kill9(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGKILL');
  await exited;
}

/** What the browser sends: JSON and a same-origin Origin on writes. */
function call(
  server: Server,
  method: string,
  url: string,
  options: { cookie?: string; body?: unknown } = {},
) {
  return fetch(`${server.base}${url}`, {
    method,
    headers: {
      ...(method === 'GET' ? {} : { origin: server.base }),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
}

async function signIn(
  server: Server,
  email = 'demo@example.com',
  password = 'demo-password',
): Promise<string> {
  const res = await call(server, 'POST', '/api/session', { body: { email, password } });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie()[0]?.split(';')[0] ?? '';
}

async function databaseEnv(kind: 'pglite' | 'postgres'): Promise<Record<string, string>> {
  if (kind === 'postgres') {
    const { url, drop } = await freshPostgresDatabase();
    cleanups.push(drop);
    // The demo accounts these tests sign in with: a DATABASE_URL database has none unless asked.
    return { DATABASE_URL: url, DEMO_DATA: '1' };
  }
  const dir = await mkdtemp(path.join(tmpdir(), 'campaign-web-proc-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return { DATA_DIR: dir };
}

describe.each(backends())('server processes on %s', { timeout: 4 * STARTUP_MS }, (kind) => {
  it('keeps an acknowledged write through kill -9 and a restart', async () => {
    const env = await databaseEnv(kind);
    const first = await start(env);
    const cookie = await signIn(first);
    const name = `Survivor ${Date.now()}`;
    const write = await call(first, 'PATCH', '/api/profile', { cookie, body: { displayName: name } });
    expect(write.status).toBe(200);
    // No graceful anything: the process dies the moment the answer is in.
    await kill9(first);

    const second = await start(env);
    const read = await call(second, 'GET', '/api/profile', { cookie });
    expect(read.status).toBe(200);
    expect((await read.json()).profile.displayName).toBe(name);
    expect(second.output()).not.toMatch(/error/i);
  });
});

describe('two server processes on one database', { timeout: 4 * STARTUP_MS }, () => {
  it.skipIf(!POSTGRES_URL)('share sessions and data on PostgreSQL', async () => {
    const env = await databaseEnv('postgres');
    // Started together: their migrations take turns on the migration lock.
    const [one, two] = await Promise.all([start(env), start(env)]);
    const cookie = await signIn(one);

    const seen = await call(two, 'GET', '/api/session', { cookie });
    expect((await seen.json()).user).toMatchObject({ id: 'u1', email: 'demo@example.com' });

    expect(
      (await call(two, 'PATCH', '/api/profile', { cookie, body: { displayName: 'From two' } })).status,
    ).toBe(200);
    expect((await (await call(one, 'GET', '/api/profile', { cookie })).json()).profile.displayName).toBe(
      'From two',
    );

    expect((await call(one, 'DELETE', '/api/session', { cookie })).status).toBe(204);
    expect((await (await call(two, 'GET', '/api/session', { cookie })).json()).user).toBeNull();
  });

  it('refuse to share one embedded folder: the second exits with the reason', async () => {
    const env = await databaseEnv('pglite');
    const first = await start(env);
    const second = run({ ...env, PORT: String(await freePort()) });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`is in use by another server`);
    expect(first.child.exitCode).toBeNull();
    expect(second.output()).toContain('set DATABASE_URL to share a PostgreSQL server');
  });

  it.skipIf(!CAN_UNSHARE)(
    'refuse to share one embedded folder from two PID namespaces: both are pid 1, the second exits with the reason',
    async () => {
      // Two containers on one volume: a lock that named a pid would read "1", the second's own, and take the
      // folder. The lease (api/database/open.ts) names none.
      const env = await databaseEnv('pglite');
      const first = await start(env, true);
      expect(first.output()).toContain('(pid 1)');
      const second = run({ ...env, PORT: String(await freePort()) }, true);
      // Raced with listening, so a second server that takes the folder fails here rather than at the timeout.
      expect(await second.outcome, second.output()).toBe(1);
      expect(second.output()).toContain(
        `The embedded database in ${path.join(env.DATA_DIR as string, 'pglite')} is in use by another server`,
      );
      // The first keeps serving, on its lease.
      expect(first.child.exitCode).toBeNull();
      const session = await call(first, 'GET', '/api/session');
      expect(session.status).toBe(200);
      expect((await session.json()).user).toBeNull();
      await signIn(first);
    },
  );
});

describe('start-up failures', { timeout: 2 * STARTUP_MS }, () => {
  it('exits 1 with a one-line reason when PostgreSQL cannot be reached', async () => {
    const server = run({ DATABASE_URL: 'postgres://app:pw@127.0.0.1:1/app', PORT: String(await freePort()) });
    expect(await server.exited).toBe(1);
    expect(server.output().trim()).toMatch(
      /^\[demo-api\] Could not connect to PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/app: /,
    );
  });
});

if (!CAN_UNSHARE) {
  console.warn(
    `[process tests] ${NO_UNSHARE_REASON}: the test of two servers in two PID namespaces on one embedded ` +
      'folder is SKIPPED (tests/api/database/open.test.ts still tests the lease from another process).',
  );
}

if (!POSTGRES_URL) {
  console.warn(
    '[process tests] TEST_DATABASE_URL is not set: the two-process test on PostgreSQL is SKIPPED ' +
      '(scripts/ci/with-postgres.sh runs it).',
  );
}
