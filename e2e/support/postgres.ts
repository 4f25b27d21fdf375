/**
 * A PostgreSQL database for the specs that need one (e2e/rendering.spec.ts): a fresh database on the server
 * TEST_DATABASE_URL names (`scripts/ci/with-postgres.sh` starts one), or else a throw-away cluster of Debian's
 * PostgreSQL started here, as that script starts it, and stopped and deleted by `stop`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import pg from 'pg';

export interface TestPostgres {
  readonly url: string;
  stop(): Promise<void>;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(a) - Number(b)) : [];
  const dir = versions.length > 0 ? path.join(root, versions.at(-1) as string, 'bin') : '';
  if (!dir || !existsSync(path.join(dir, 'initdb')))
    throw new Error('No PostgreSQL server under /usr/lib/postgresql (apt-get install postgresql).');
  return dir;
}

async function freshDatabase(serverUrl: string): Promise<TestPostgres> {
  const name = `campaign_e2e_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    stop: async () => {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

export async function startPostgres(): Promise<TestPostgres> {
  if (process.env.TEST_DATABASE_URL) return freshDatabase(process.env.TEST_DATABASE_URL);
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'campaign-web-e2e-pg-'));
  // PostgreSQL refuses to run as root: the cluster then belongs to the package's `postgres` user.
  const asOwner = process.getuid?.() === 0 ? ['runuser', '-u', 'postgres', '--'] : [];
  if (asOwner.length > 0) execFileSync('chown', ['postgres', dir]);
  const run = (command: string, args: string[]) => {
    const [file, ...rest] = [...asOwner, path.join(bin, command), ...args];
    const result = spawnSync(file as string, rest, { stdio: 'pipe' });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr.toString()}`);
  };
  const port = await getPort();
  const data = path.join(dir, 'data');
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C.UTF-8']);
  run('pg_ctl', [
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${port} -c listen_addresses=127.0.0.1 -k ${dir}`,
    'start',
  ]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
