// @vitest-environment node
/**
 * The regression test `npm run replay -- <id> --test` writes (tests/support/replay.ts) holds no report text: a
 * report is a stranger's, and the generated file is committed and runs in every `npm test`. Its source parses
 * to exactly the template's statements whatever the report holds, and running it runs nothing of the report.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isImportDeclaration, isStringLiteral, type Statement, SyntaxKind } from 'typescript/unstable/ast';
import { createVirtualFileSystem } from 'typescript/unstable/fs';
import { API } from 'typescript/unstable/sync';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReportBody } from '../../../api/types';
import { REPLAY_NAME, regressionTestSource, replayName } from '../../support/replay';
import { sampleReport } from '../../support/reportFixture';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Each way text can end a comment, a string or a template, or start code, in TypeScript. */
const BREAKOUTS = ['\n', '\r', '\u2028', '\u2029', '*/', '`', '${', "'", '"', '</script>', '\\'];

function hostileReport(marker: string): ReportBody & { id: string } {
  const payload = (breakout: string) =>
    `x${breakout}import { writeFileSync as w } from 'node:fs'; w(${JSON.stringify(marker)}, '');${breakout}//`;
  const text = BREAKOUTS.map(payload).join('');
  return {
    ...sampleReport({
      buildId: text,
      route: { name: text, path: `/${text}` },
      state: { [text]: text },
      events: [{ type: text, to: text }],
      boot: { path: `/${text}`, title: text },
      error: { name: text, message: text, status: 500 },
    }),
    id: `id${text}`,
  };
}

/** The template's other statements by name (SyntaxKind's reverse mapping says FirstStatement for a `const`). */
const KIND_NAMES: Partial<Record<SyntaxKind, string>> = {
  [SyntaxKind.VariableStatement]: 'VariableStatement',
  [SyntaxKind.ExpressionStatement]: 'ExpressionStatement',
};

/** The shape of a statement: its kind and, for an import, where from. */
function shape(statement: Statement): string {
  if (isImportDeclaration(statement) && isStringLiteral(statement.moduleSpecifier))
    return `import ${statement.moduleSpecifier.text}`;
  return KIND_NAMES[statement.kind] ?? SyntaxKind[statement.kind];
}

/**
 * Parses `source` as tests/replays/<file> with the TypeScript compiler (TypeScript 7's API: the parser is the Go
 * compiler's, so this runs `tsc`'s own binary on an in-memory file) and returns its parse diagnostics and the
 * shapes of its statements. No library and no import is read: only the syntax is checked.
 */
function parseWithTypeScript(file: string, source: string): { diagnostics: string[]; statements: string[] } {
  const dir = '/in-memory/tests/replays';
  const config = `${dir}/tsconfig.json`;
  const api = new API({
    cwd: dir,
    fs: createVirtualFileSystem({
      [config]: JSON.stringify({
        compilerOptions: { noLib: true, noResolve: true, types: [], module: 'esnext', target: 'esnext' },
        files: [file],
      }),
      [`${dir}/${file}`]: source,
    }),
  });
  try {
    const { program } = api.updateSnapshot({ openProjects: [config] }).getProject(config) ?? {};
    const sourceFile = program?.getSourceFile(`${dir}/${file}`);
    if (!program || !sourceFile) throw new Error(`TypeScript did not load ${file}`);
    return {
      diagnostics: program.getSyntacticDiagnostics(`${dir}/${file}`).map((diagnostic) => diagnostic.text),
      statements: sourceFile.statements.map(shape),
    };
  } finally {
    api.close();
  }
}

/** The statements of the template (tests/support/replay.ts regressionTestSource), in order. */
const TEMPLATE = (name: string) => [
  'import vitest',
  'import ../../api/types',
  'import ../support/replay',
  `import ./${name}.json`,
  'VariableStatement',
  'ExpressionStatement',
];

describe('the generated regression test', () => {
  it('parses to exactly the template’s statements, whatever the report holds', () => {
    const report = hostileReport('PWNED');
    const name = replayName(report.id);
    expect(name).toMatch(REPLAY_NAME);
    const source = regressionTestSource(name);
    expect(parseWithTypeScript(`${name}.test.ts`, source)).toEqual({
      diagnostics: [],
      statements: TEMPLATE(name),
    });
    // Nothing of the report is in the source but its sanitised id.
    const rest = source.replaceAll(name, '');
    expect(rest).not.toContain('PWNED');
    expect(rest).not.toContain('node:fs');
    for (const breakout of ['\r', '\u2028', '\u2029', '${', '*/']) expect(source).not.toContain(breakout);
  });

  it('would see report text that escapes into code: the check above can fail', () => {
    // A generator that put the report's text in a comment line at the top.
    const report = hostileReport('PWNED');
    const name = replayName(report.id);
    const source = `// Route: ${report.route.path}\n${regressionTestSource(name)}`;
    const parsed = parseWithTypeScript(`${name}.test.ts`, source);
    expect(parsed.statements).not.toEqual(TEMPLATE(name));
    expect(parsed.statements).toContain('import node:fs');
  });

  it('refuses a name that is not a sanitised id', () => {
    for (const name of ['', 'a b', 'a\nb', 'x'.repeat(65), "a'b", 'a/b', '../x'])
      expect(() => regressionTestSource(name)).toThrow('Not a replay test name');
    expect(replayName('a b/../\u2028c')).toBe('a_b_____c');
    expect(replayName('')).toBe('report');
  });

  describe('run by Vitest', () => {
    const name = 'planted_payload_check';
    const files = ['test.ts', 'json'].map((ext) => path.join(ROOT, 'tests', 'replays', `${name}.${ext}`));
    const marker = path.join(ROOT, 'tests', 'replays', 'PWNED-marker');
    afterEach(async () => {
      for (const file of [...files, marker]) await rm(file, { force: true });
    });

    it('runs nothing of the report: the planted side effect does not happen', {
      timeout: 180_000,
    }, async () => {
      const [testFile = '', jsonFile = ''] = files;
      await writeFile(jsonFile, `${JSON.stringify(hostileReport(marker), null, 2)}\n`);
      await writeFile(testFile, regressionTestSource(name));
      const ran = await new Promise<string>((resolve) =>
        execFile(
          process.execPath,
          [
            path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'),
            'run',
            '--reporter=verbose',
            path.relative(ROOT, testFile),
          ],
          { cwd: ROOT, timeout: 150_000, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } },
          (_error, stdout, stderr) => resolve(`${stdout}${stderr}`),
        ),
      );
      // Vitest ran the file: its one test is named in the output (it passes or fails on the replay itself).
      expect(ran).toContain(`report ${name}: the recorded events no longer end in the reported state`);
      expect(existsSync(marker)).toBe(false);
    });
  });
});
