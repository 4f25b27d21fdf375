/**
 * Paths into this repository as comments and documents name them (`server/app.ts`, `tests/build/`), for the
 * check that each one exists (tests/docs/paths.test.ts). A path counts when it starts at a top-level folder
 * of ours and ends in an extension or a `/`: `api/session` is a word, `/api/reports` a URL (a route, not a
 * file), `../machines/x.ts` relative to its file and `https://…/src/x.ts` someone else's; none of those is
 * read.
 */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from '@babel/parser';

export const TOP_FOLDERS = [
  'api',
  'build',
  'core',
  'docs',
  'e2e',
  'machines',
  'scripts',
  'server',
  'src',
  'tests',
];

/** A repository path found in some text: the path as written and the line (1-based) it is on. */
export interface NamedPath {
  readonly path: string;
  readonly line: number;
}

// Not after a character that would make it part of something longer: a URL's or a relative path's `/`, a
// word, a package scope, a dotted name (`campaign-web.api/x.ts`).
const PATH = new RegExp(`(?<![\\w./@\\\\-])(?:${TOP_FOLDERS.join('|')})/[\\w.\\-/]*`, 'g');
/** A glob or a placeholder follows: `tests/server.*.test.ts`, `src/pages/{name}.tsx`, `${dir}`. */
const PATTERN_NEXT = /^[*{<$[]/;

/** The repository paths `text` names, with the line each is on (`firstLine` is the line `text` starts on). */
export function pathsIn(text: string, firstLine = 1): NamedPath[] {
  const found: NamedPath[] = [];
  for (const match of text.matchAll(PATH)) {
    const end = match.index + match[0].length;
    // A sentence's full stop is not part of the path; a glob's fixed part is checked as the folder it names.
    let path = match[0].replace(/[.-]+$/, '');
    if (PATTERN_NEXT.test(text.slice(end))) path = path.slice(0, path.lastIndexOf('/') + 1);
    const last = path.slice(path.lastIndexOf('/') + 1);
    if (!path.endsWith('/') && !/\.\w+$/.test(last)) continue;
    found.push({ path, line: firstLine + countNewlines(text.slice(0, match.index)) });
  }
  return found;
}

function countNewlines(text: string): number {
  let count = 0;
  for (const char of text) if (char === '\n') count += 1;
  return count;
}

/** The comments of a TypeScript or JavaScript module, each with the line it starts on. */
export function commentsOf(source: string, file: string): { text: string; line: number }[] {
  const typescript = /\.(?:ts|tsx|mts|cts)$/.test(file);
  const ast = parse(source, {
    sourceType: 'module',
    errorRecovery: true,
    plugins: typescript ? (file.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript']) : ['jsx'],
  });
  return (ast.comments ?? []).map((comment) => ({ text: comment.value, line: comment.loc?.start.line ?? 1 }));
}

/**
 * Whether `path` exists under `root`: a file, or a folder when it ends in `/`. A module named without its
 * extension (`machines/app/app.machine`, as an import would name it) counts when one of the source extensions fits.
 */
export function existsIn(root: string, path: string): boolean {
  const full = join(root, path);
  if (path.endsWith('/')) return existsSync(full) && statSync(full).isDirectory();
  return ['', '.ts', '.tsx', '.mjs'].some((extension) => existsSync(`${full}${extension}`));
}
