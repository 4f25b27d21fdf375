/**
 * A promise nobody waits for is a bug no test may catch: Biome's `noFloatingPromises` (a promise-returning call
 * left unawaited, unhandled and not marked `void`) and `noMisusedPromises` (a promise where a condition is
 * expected, where an `await` went missing), both in biome.json. The tree must pass, and a planted violation of each
 * must fail, so the rules are known to be on.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const biome = join(root, 'node_modules', '.bin', 'biome');
const RULES = ['nursery/noFloatingPromises', 'nursery/noMisusedPromises'];

function lint(paths: string[]): { failed: boolean; output: string } {
  const args = ['lint', '--colors=off', ...RULES.map((rule) => `--only=${rule}`), ...paths];
  const { status, stdout, stderr } = spawnSync(biome, args, { cwd: root, encoding: 'utf8' });
  return { failed: status !== 0, output: `${stdout}${stderr}` };
}

/** Plants `source` in `folder`, lints it, and removes it. */
function plant(folder: string, source: string) {
  const file = join(root, folder, `planted-${process.pid}-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, `${source}\n`);
  try {
    return lint([file]);
  } finally {
    rmSync(file, { force: true });
  }
}

const save = 'async function save(): Promise<boolean> {\n  return true;\n}\n';

describe('promises are awaited (biome.json noFloatingPromises, noMisusedPromises)', {
  timeout: 60_000,
}, () => {
  it('finds none in the code', () => {
    const result = lint(['core', 'src', 'machines', 'server', 'api', 'build', 'scripts', 'tests', 'e2e']);
    // Not the exit code: a file another lint test plants and removes meanwhile can fail the walk itself.
    expect(result.output).toMatch(/Checked \d+ files/);
    expect(result.output).not.toMatch(/noFloatingPromises|noMisusedPromises/);
  });

  it.each(['api', 'src/platform', 'server'])('rejects a dropped await planted in %s/', (folder) => {
    const result = plant(folder, `${save}export async function run(): Promise<void> {\n  save();\n}`);
    expect(result.failed).toBe(true);
    expect(result.output).toContain('noFloatingPromises');
  });

  it('rejects a promise planted where a condition is expected', () => {
    const result = plant(
      'api',
      `${save}export async function run(): Promise<string> {\n  return save() ? 'saved' : 'not saved';\n}`,
    );
    expect(result.failed).toBe(true);
    expect(result.output).toContain('noMisusedPromises');
  });

  it('lets an awaited promise, or one marked `void`, pass', () => {
    const awaited = plant(
      'api',
      `${save}export async function run(): Promise<void> {\n  await save();\n  void save();\n  if (await save()) return;\n}`,
    );
    expect(awaited.output).not.toMatch(/noFloatingPromises|noMisusedPromises/);
    expect(awaited.failed).toBe(false);
  });
});
