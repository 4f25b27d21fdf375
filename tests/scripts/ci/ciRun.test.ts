// @vitest-environment node
/**
 * The CI entry point (.ci/run) must not pass without the PostgreSQL tests: when PostgreSQL cannot be installed
 * it stops with exit 1 and says why, before installing Node or running anything, instead of running the suite
 * with the two-instance and PostgreSQL tests skipped. Run here with an apt-get that fails and a PG_BINDIR
 * (the server binaries scripts/ci/with-postgres.sh would use) that holds none.
 */
import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = process.cwd();
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'campaign-web-ci-run-'));
  // apt-get and sudo that fail as on a machine without the package (or the network), and log that they ran; npm
  // too, so that a run that went on could install or test nothing in the checkout.
  await mkdir(path.join(dir, 'bin'));
  for (const name of ['apt-get', 'sudo', 'npm', 'npx']) {
    const stub = path.join(dir, 'bin', name);
    await writeFile(stub, `#!/bin/sh\necho "${name} $*" >> "${dir}/calls.txt"\nexit 100\n`);
    await chmod(stub, 0o755);
  }
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('.ci/run', { timeout: 90_000 }, () => {
  it('stops with exit 1 and the reason when PostgreSQL cannot be installed, before running anything', async () => {
    const outcome = await promisify(execFile)('bash', ['.ci/run'], {
      cwd: ROOT,
      env: {
        PATH: `${path.join(dir, 'bin')}:${process.env.PATH}`,
        HOME: dir,
        // A browser is there: only PostgreSQL is missing.
        CHROME_PATH: '/bin/true',
        PG_BINDIR: path.join(dir, 'no-postgresql'),
      },
      timeout: 60_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain(
      'ci: PostgreSQL could not be installed (apt-get install postgresql failed), and the PostgreSQL and ' +
        'two-instance tests need it: stopping. Install Debian’s postgresql, or set PG_BINDIR to its bin/ folder.',
    );
    // It tried to install it, and stopped before Node, npm ci or the suite.
    const calls = await readFile(path.join(dir, 'calls.txt'), 'utf8');
    expect(calls).toMatch(/^apt-get .*postgresql/m);
    expect(calls).not.toMatch(/^npm/m);
    expect(outcome.stdout).not.toMatch(/node24:|ci: node /);
  });
});
