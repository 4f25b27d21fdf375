// @vitest-environment node
/**
 * npm's `prepare` script (scripts/ci/prepare.mjs), run as npm runs it during `npm ci`: `npm run prepare` in a
 * temporary copy of the checkout's package.json and the script. Without devDependencies (`npm ci --omit=dev`,
 * to serve a build that exists) there is no Panda: it used to stop there with exit 127, and must now say why
 * it generates nothing and exit 0. With Panda installed it runs Panda's codegen, and fails as that fails.
 */
import { execFile } from 'node:child_process';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = process.cwd();
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** A folder outside the checkout (no node_modules above it) with its package.json and prepare script. */
async function checkoutCopy(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'campaign-web-prepare-'));
  folders.push(dir);
  await mkdir(path.join(dir, 'scripts/ci'), { recursive: true });
  await copyFile(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
  await copyFile(path.join(ROOT, 'scripts/ci/prepare.mjs'), path.join(dir, 'scripts/ci/prepare.mjs'));
  return dir;
}

async function npmRunPrepare(cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const { PATH, HOME } = process.env;
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '--silent', 'prepare'], {
      cwd,
      env: { PATH, HOME, npm_config_update_notifier: 'false' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run prepare', { timeout: 60_000 }, () => {
  it('says there is nothing to generate without Panda (devDependencies omitted), and exits 0', async () => {
    const dir = await checkoutCopy();
    const run = await npmRunPrepare(dir);
    expect(run).toEqual({
      code: 0,
      stdout:
        'prepare: Panda is not installed (devDependencies omitted), so there is no style code to generate.\n',
      stderr: '',
    });
  });

  it('runs Panda’s codegen when Panda is installed, and fails as it fails', async () => {
    const dir = await checkoutCopy();
    // A stand-in for @pandacss/dev: its package.json, and a `panda` on npm's PATH that records its arguments.
    await mkdir(path.join(dir, 'node_modules/@pandacss/dev'), { recursive: true });
    await writeFile(path.join(dir, 'node_modules/@pandacss/dev/package.json'), '{"name":"@pandacss/dev"}');
    const bin = path.join(dir, 'node_modules/.bin/panda');
    await mkdir(path.dirname(bin));
    await writeFile(bin, '#!/bin/sh\necho "$@" > panda-args.txt\nexit 3\n');
    await chmod(bin, 0o755);
    const run = await npmRunPrepare(dir);
    expect(run.code).toBe(3);
    expect(await readFile(path.join(dir, 'panda-args.txt'), 'utf8')).toBe('codegen --silent\n');
    expect(run.stdout).not.toContain('Panda is not installed');
  });
});
