/**
 * Components render views and call commands (docs/architecture.md): in src/ui, src/pages, src/layouts and
 * src/App.tsx, nothing sends an actor an event (`.send(`), reads a state (`.matches({…})`, `.hasTag(`), or takes
 * a snapshot (`.getSnapshot()`) other than to hand it straight to a `*View()` function. src/platform/appActor.ts is the
 * one bridge allowed to. The DOM's `Element.matches(':hover')` is no state read. Each rule is proved on planted
 * files, as the import rules are (tests/house/dependencyRules.test.ts), and on allowed code that must pass.
 */
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from '@babel/parser';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const SCOPE = ['src/ui', 'src/pages', 'src/layouts', 'src/App.tsx'];
const BRIDGE = 'src/platform/appActor.ts';

interface Node {
  readonly type: string;
  readonly [key: string]: unknown;
}

/** Every node with its parent, depth first. */
function* walk(node: unknown, parent: Node | null = null): Generator<[Node, Node | null]> {
  if (!node || typeof (node as Node).type !== 'string') return;
  yield [node as Node, parent];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'extra' || key.endsWith('Comments')) continue;
    for (const child of Array.isArray(value) ? value : [value]) yield* walk(child, node as Node);
  }
}

const calleeName = (call: Node): string | undefined => {
  const callee = call.callee as Node;
  if (callee.type === 'Identifier') return callee.name as string;
  const property = callee.property as Node | undefined;
  return callee.computed ? undefined : (property?.name as string | undefined);
};

/** What one file breaks of the rule, as `line: what`. */
function violationsIn(source: string): string[] {
  const ast = parse(source, { sourceType: 'module', plugins: ['typescript', 'jsx'] });
  const found: string[] = [];
  for (const [node, parent] of walk(ast.program)) {
    if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') continue;
    const callee = node.callee as Node;
    if (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') continue;
    const name = calleeName(node);
    const args = node.arguments as Node[];
    const line = (node.loc as { start: { line: number } }).start.line;
    if (name === 'send') found.push(`${line}: sends an event (.send)`);
    else if (name === 'hasTag') found.push(`${line}: reads a state (.hasTag)`);
    else if (name === 'matches' && args[0]?.type === 'ObjectExpression')
      found.push(`${line}: reads a state (.matches({…}))`);
    else if (name === 'getSnapshot') {
      const handedToView =
        parent !== null &&
        (parent.type === 'CallExpression' || parent.type === 'OptionalCallExpression') &&
        (parent.arguments as Node[]).length === 1 &&
        (parent.arguments as Node[])[0] === node &&
        /View$/.test(calleeName(parent) ?? '');
      if (!handedToView)
        found.push(`${line}: takes a snapshot not handed to a *View() function (.getSnapshot)`);
    }
  }
  return found;
}

/** The TypeScript files in scope, but the bridge. */
function filesInScope(): string[] {
  const files: string[] = [];
  const visit = (path: string) => {
    const full = join(root, path);
    if (statSync(full).isDirectory()) for (const entry of readdirSync(full)) visit(join(path, entry));
    else if (/\.tsx?$/.test(path) && !path.endsWith('.d.ts') && path !== BRIDGE) files.push(path);
  };
  for (const path of SCOPE) visit(path);
  return files;
}

/** Every violation in scope, as `file:line: what`. */
function violationsInScope(): string[] {
  return filesInScope().flatMap((file) =>
    violationsIn(readFileSync(join(root, file), 'utf8')).map((violation) => `${file}:${violation}`),
  );
}

/** Plants `source` in `folder` for one scan of the scope, then removes it. */
function plantAndScan(folder: string, source: string): string[] {
  const name = `planted-${process.pid}-${Math.random().toString(36).slice(2)}.tsx`;
  const file = join(root, folder, name);
  writeFileSync(file, `${source}\n`);
  try {
    return violationsInScope().filter((violation) => violation.startsWith(relative(root, file)));
  } finally {
    rmSync(file, { force: true });
  }
}

describe('components render views and call commands', () => {
  it('holds in src/ui, src/pages, src/layouts and src/App.tsx', () => {
    expect(filesInScope()).toContain('src/App.tsx');
    expect(filesInScope()).not.toContain(BRIDGE);
    expect(violationsInScope()).toEqual([]);
  });

  it.each([
    ['src/ui', "export const go = (app: Actor) => app.send({ type: 'nav.go', to: '/' });", 'sends an event'],
    [
      'src/pages',
      'export const ready = (app: Actor) => app.getSnapshot().context.prerendered;',
      'takes a snapshot',
    ],
    [
      'src/layouts',
      "export const loading = (s: Snapshot) => s.matches({ navigation: 'loading' });",
      'reads a state (.matches',
    ],
    ['src/ui', "export const busy = (s: Snapshot) => s.hasTag('busy');", 'reads a state (.hasTag)'],
    [
      'src/ui',
      'export const view = (app: Actor) => toastView(app.getSnapshot(), extra);',
      'takes a snapshot',
    ],
    ['src/ui', 'export const view = (app: Actor) => pick(app.getSnapshot());', 'takes a snapshot'],
  ])('finds a violation planted in %s: %s', (folder, source, what) => {
    const found = plantAndScan(folder, source);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(what);
  });

  it.each([
    'export const view = (toast: Actor) => toastView(toast.getSnapshot());',
    "export const hovered = (element: Element) => element.matches(':hover');",
    'export const go = (commands: AppCommands) => commands.go("/");',
  ])('lets allowed code pass: %s', (source) => {
    expect(plantAndScan('src/ui', source)).toEqual([]);
  });
});
