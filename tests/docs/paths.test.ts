// @vitest-environment node
// Every repository path a comment or a document names exists: a moved file leaves no reader looking for it.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ARTIFACT_ENTRY, ARTIFACT_SERVER_DIR } from '../../server/layout';
import { commentsOf, existsIn, pathsIn } from '../support/repoPaths';

const root = join(import.meta.dirname, '../..');

/** The checked-in files, as git lists them (so nothing built, installed or generated is read). */
function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
}

/**
 * Paths of the production artifact as a deployment runs it (`cd .output && node server/index.mjs`): they name
 * a file of `.output/`, not of the checkout.
 */
const ARTIFACT_PATHS = new Set([`${ARTIFACT_SERVER_DIR}/${ARTIFACT_ENTRY}`]);

/** `file:line: path` for each path that `file` names and that does not exist under `base`. */
function missingPaths(base: string, files: readonly string[]): string[] {
  const missing: string[] = [];
  for (const file of files) {
    const full = join(base, file);
    let text: string;
    try {
      text = readFileSync(full, 'utf8');
    } catch {
      continue; // listed by git but deleted in the working tree
    }
    const named = file.endsWith('.md')
      ? pathsIn(text)
      : commentsOf(text, file).flatMap((comment) => pathsIn(comment.text, comment.line));
    for (const { path, line } of named) {
      if (!ARTIFACT_PATHS.has(path) && !existsIn(base, path)) missing.push(`${file}:${line}: ${path}`);
    }
  }
  return missing;
}

/** The documents and the modules whose comments are read: docs, the README, our own code (not fixtures). */
function checkedFiles(files: readonly string[]): string[] {
  return files.filter(
    (file) =>
      file === 'README.md' ||
      (file.startsWith('docs/') && file.endsWith('.md')) ||
      (/\.(?:ts|tsx|mjs)$/.test(file) && !file.startsWith('styled-system/')),
  );
}

describe('paths named in comments and documents', () => {
  it('finds paths at our top-level folders, and leaves URLs, relative paths and words alone', () => {
    const text = [
      'See server/app.ts and tests/build/. Routes: /api/reports, GET /api/session/.',
      'Not ours: https://example.com/src/a.ts, @scope/src/b.ts, ../machines/c.ts, api.example/v1/.',
      'Words: api/session, src/pages (no extension, no slash). Globs: tests/server.*.test.ts, src/pages/{name}.tsx.',
    ].join('\n');
    expect(pathsIn(text, 10)).toEqual([
      { path: 'server/app.ts', line: 10 },
      { path: 'tests/build/', line: 10 },
      { path: 'tests/', line: 12 },
      { path: 'src/pages/', line: 12 },
    ]);
  });

  it('reads comments only, of TypeScript, TSX and plain modules', () => {
    const source = [
      "import x from './y'; // from src/a.ts",
      "const s = 'src/not-a-comment.ts';",
      '/**',
      ' * build/b.ts',
      ' */',
      'export const el = <div title="api/c.ts" />; /* api/d.ts */',
    ].join('\n');
    const named = commentsOf(source, 'm.tsx').flatMap((comment) => pathsIn(comment.text, comment.line));
    expect(named).toEqual([
      { path: 'src/a.ts', line: 1 },
      { path: 'build/b.ts', line: 4 },
      { path: 'api/d.ts', line: 6 },
    ]);
  });

  describe('on a tree with a stale path', () => {
    const base = mkdtempSync(join(tmpdir(), 'campaign-web-paths-'));
    afterAll(() => rmSync(base, { recursive: true, force: true }));

    it('lists each missing path with its file and line, and accepts a module named without its extension', () => {
      mkdirSync(join(base, 'src'), { recursive: true });
      mkdirSync(join(base, 'docs'), { recursive: true });
      writeFileSync(join(base, 'src/app.machine.ts'), '// src/app.machine, src/gone.ts\nexport {};\n');
      writeFileSync(
        join(base, 'docs/a.md'),
        'Fine: src/, src/app.machine.ts\n\nStale: server/api/reports.ts\n',
      );
      expect(missingPaths(base, ['src/app.machine.ts', 'docs/a.md'])).toEqual([
        'src/app.machine.ts:1: src/gone.ts',
        'docs/a.md:3: server/api/reports.ts',
      ]);
    });
  });

  it('every repository path named in a comment, the README or docs/ exists', () => {
    const files = checkedFiles(trackedFiles());
    expect(files).toContain('README.md');
    expect(files).toContain('src/pages/registry.ts');
    expect(missingPaths(root, files)).toEqual([]);
  });
});
