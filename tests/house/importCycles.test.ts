/**
 * No import cycle under core/, src/, machines/, server/, api/ or build/: Biome's `noImportCycles` (biome.json,
 * with `ignoreTypes: false`, so a cycle through `import type` counts too: it still ties the modules together for
 * the reader and for the next refactor). The tree must pass, and a planted cycle must fail, so the rule is
 * known to be on and to see these folders.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const biome = join(root, 'node_modules', '.bin', 'biome');
const folders = ['core', 'src', 'machines', 'server', 'api', 'build'];

function lintCycles(paths: string[]): { failed: boolean; output: string } {
  try {
    const output = execFileSync(
      biome,
      ['lint', '--colors=off', '--only=suspicious/noImportCycles', '--max-diagnostics=50', ...paths],
      { cwd: root, encoding: 'utf8', stdio: 'pipe' },
    );
    return { failed: false, output };
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return { failed: true, output: `${stdout}${stderr}` };
  }
}

/** Two modules in `folder` that import each other (type-only when asked), linted and removed. */
function plantCycle(folder: string, typeOnly: boolean) {
  const tag = `planted-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const a = join(root, folder, `${tag}-a.ts`);
  const b = join(root, folder, `${tag}-b.ts`);
  const keyword = typeOnly ? 'import type' : 'import';
  writeFileSync(
    a,
    `${keyword} { B } from './${tag}-b';\nexport interface A { b?: B }\nexport const a = 1;\n`,
  );
  writeFileSync(
    b,
    `${keyword} { A } from './${tag}-a';\nexport interface B { a?: A }\nexport const b = 2;\n`,
  );
  try {
    return lintCycles([a, b]);
  } finally {
    rmSync(a, { force: true });
    rmSync(b, { force: true });
  }
}

describe('import cycles (biome.json noImportCycles)', { timeout: 60_000 }, () => {
  it('finds none in the code', () => {
    const result = lintCycles(folders);
    expect(result.output).not.toContain('noImportCycles');
    expect(result.failed).toBe(false);
  });

  it.each(folders)('rejects a cycle planted in %s/', (folder) => {
    const result = plantCycle(folder, false);
    expect(result.failed).toBe(true);
    expect(result.output).toContain('noImportCycles');
    expect(result.output).toContain('This import is part of a cycle');
  });

  it('rejects a cycle made of type-only imports', () => {
    const result = plantCycle('machines', true);
    expect(result.failed).toBe(true);
    expect(result.output).toContain('noImportCycles');
  });
});
