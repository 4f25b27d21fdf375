/**
 * The design's dependency rules are Biome `noRestrictedImports` overrides (biome.json). Each is proved
 * here: a file with a forbidden import is planted in the folder the rule guards, linted, and removed.
 * A permitted import planted the same way must pass, so the rules are not simply failing everything.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const biome = join(root, 'node_modules', '.bin', 'biome');

/** Plants `source` in `folder` (as `name`, if given: a config file's rule matches by name) and lints it. */
function lint(folder: string, source: string, name?: string): { failed: boolean; output: string } {
  const planted = `planted-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const file = join(root, folder, name?.replace('*', planted) ?? `${planted}.ts`);
  writeFileSync(file, `${source}\n`);
  try {
    const output = execFileSync(biome, ['lint', '--colors=off', '--only=style/noRestrictedImports', file], {
      cwd: root,
      encoding: 'utf8',
      stdio: 'pipe',
    });
    return { failed: false, output };
  } catch (error) {
    const { stdout, stderr } = error as { stdout: string; stderr: string };
    return { failed: true, output: `${stdout}${stderr}` };
  } finally {
    rmSync(file, { force: true });
  }
}

const violations = [
  { folder: 'machines', source: "export { config } from '../src/config';", rule: 'machines/ are pure' },
  {
    folder: 'machines',
    source: "export { buildServer } from '../server/app';",
    rule: 'machines/ are pure',
  },
  { folder: 'machines', source: "export { createApiApp } from '../api/app';", rule: 'machines/ are pure' },
  {
    folder: 'machines',
    source: "export { staticStyles } from '../build/staticStyles';",
    rule: 'machines/ are pure',
  },
  {
    folder: 'src/platform',
    source: "export { loadPage } from '../pages/registry';",
    rule: 'src/platform and src/ui import nothing from src/pages',
  },
  {
    folder: 'src/ui',
    source: "export { ErrorView } from '../pages/errorView';",
    rule: 'src/platform and src/ui import nothing from src/pages',
  },
  {
    folder: 'src',
    source: "export { buildServer } from '../server/app';",
    rule: 'src/ runs in the browser',
  },
  {
    folder: 'src',
    source: "export { createApiApp } from '../api/app';",
    rule: 'src/ runs in the browser',
  },
  {
    folder: 'src',
    source: "export { staticStyles } from '../build/staticStyles';",
    rule: 'src/ runs in the browser',
  },
  {
    folder: 'src/platform',
    source: "export { readApiConfig } from '../../api/config';",
    rule: 'src/ runs in the browser',
  },
  {
    folder: 'src/pages',
    source: "export { prerenderPages } from '../../build/prerenderPages';",
    rule: 'src/ runs in the browser',
  },
  {
    folder: 'server',
    source: "export { config } from '../src/config';",
    rule: 'server/ imports nothing from src/',
  },
  {
    folder: 'server',
    source: "export { precompress } from '../build/precompress';",
    rule: 'server/ never imports build/',
  },
  { folder: 'api', source: "export { config } from '../src/config';", rule: 'api/ stands alone' },
  {
    folder: 'api',
    source: "export { staticStyles } from '../build/staticStyles';",
    rule: 'api/ stands alone',
  },
  { folder: 'api', source: "export { buildServer } from '../server/app';", rule: 'api/ stands alone' },
  {
    folder: 'api/database',
    source: "export { hashesOfBuild } from '../../server/plugins/inlineHashes';",
    rule: 'api/ stands alone',
  },
  ...['server', 'api', 'build'].map((folder) => ({
    folder,
    source: "export { appView } from '../machines/app/app.view';",
    rule: 'server/, api/ and build/ import core/, never machines/',
  })),
  {
    folder: 'core',
    source: "export { config } from '../src/config';",
    rule: 'core/ imports nothing of ours',
  },
  {
    folder: 'core',
    source: "export { appView } from '../machines/app/app.view';",
    rule: 'core/ imports nothing of ours',
  },
  {
    folder: 'core',
    source: "export { createApiApp } from '../api/app';",
    rule: 'core/ imports nothing of ours',
  },
  { folder: 'core', source: "export { readFileSync } from 'node:fs';", rule: 'core/ runs in every runtime' },
  { folder: 'core', source: "export { useState } from 'react';", rule: 'core/ runs in every runtime' },
] as const;

describe('dependency rules (biome.json noRestrictedImports)', { timeout: 30_000 }, () => {
  it.each(violations)('rejects $source in $folder/', ({ folder, source, rule }) => {
    const result = lint(folder, source);
    expect(result.failed).toBe(true);
    expect(result.output).toContain('noRestrictedImports');
    expect(result.output).toContain(rule);
  });

  it.each([
    "export { config } from './src/config.ts';",
    "export { buildServer } from './server/app.ts';",
    "export { routes } from './core/routes.ts';",
    "export { appView } from './machines/app/app.view.ts';",
  ])('rejects %s in a Vite config, which imports only build/', (source) => {
    const result = lint('.', source, 'vite.*.config.ts');
    expect(result.failed).toBe(true);
    expect(result.output).toContain('The Vite and Vitest configs import only build/');
    expect(
      lint('.', "export { colorModeBoot } from './build/colorModeBoot.ts';", 'vite.*.config.ts').failed,
    ).toBe(false);
  });

  it('vite.config.ts itself passes the rule', () => {
    const result = lint('.', readFileSync(join(root, 'vite.config.ts'), 'utf8'), 'vite.*.config.ts');
    expect(result.output).not.toContain('noRestrictedImports');
  });

  it.each([
    { folder: 'src/platform', source: "export type { Profile } from '../../api/types';" },
    { folder: 'src/ui', source: "export { appView } from '../../machines/app/app.view';" },
    { folder: 'machines/app', source: "export { routes } from '../../core/routes';" },
    { folder: 'core', source: "export { safeReturnTo } from './returnTo';" },
    { folder: 'server', source: "export { routes } from '../core/routes';" },
    { folder: 'server', source: "export { createApiApp } from '../api/app';" },
    { folder: 'api', source: "export { PGlite } from '@electric-sql/pglite';" },
    { folder: 'build', source: "export { buildServer } from '../server/app';" },
    { folder: 'build', source: "export { createApiApp } from '../api/app';" },
    { folder: 'build', source: "export { routes } from '../core/routes';" },
    { folder: 'core', source: "export { pageFiles } from './pages';" },
    { folder: 'src/pages', source: "export { pageFiles } from '../../core/pages';" },
    { folder: 'api', source: "export { DISPLAY_NAME_MAX } from '../core/limits.ts';" },
    { folder: 'build', source: "export { apiBaseFrom } from '../core/apiBase.ts';" },
    { folder: 'server', source: "export { pageFiles } from '../core/pages.ts';" },
  ])('allows $source in $folder/', ({ folder, source }) => {
    const result = lint(folder, source);
    expect(result.output).not.toContain('noRestrictedImports');
    expect(result.failed).toBe(false);
  });
});
