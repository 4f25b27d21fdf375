import path from 'node:path';
import { pathToFileURL } from 'node:url';
import MagicString, { type SourceMap } from 'magic-string';
import type { Plugin } from 'vite';
import { parseAst } from 'vite';

/**
 * Panda's `css()`, recipe and pattern functions turn a style object into class names at run time, which puts
 * Panda's whole runtime (its utility table, condition sorting, hashing: about 6 kB gzip) into the first load.
 * Almost every call in this app is written with literal arguments (`css({ fontSize: 'sm' })`,
 * `button({ visual: 'outline' })`), so its result is known at build time. This plugin runs those calls
 * with the very same generated runtime (`styled-system/`) while building, and writes the resulting class
 * string in place of the call. Panda's extractor already put the CSS for these calls in the stylesheet; only
 * the JavaScript that recomputes their names leaves the bundle. A call with any argument that is not a literal
 * (a variable, a spread, a function) is left as it is and keeps the runtime, so the output is always correct.
 *
 * Written here because the one plugin that does this (`@pandabox/unplugin`) is built on Panda 0.36's extractor
 * and Rollup 3, and supports neither Panda 1 nor Vite 8.
 */

/** The styled-system modules whose calls can be folded, and which of their exports are pure string functions. */
const FOLDABLE = {
  css: (name: string) => name === 'css' || name === 'cx',
  recipes: () => true,
  patterns: () => true,
} as const;
type Kind = keyof typeof FOLDABLE;

const STYLED_SYSTEM_IMPORT = /(?:^|\/)styled-system\/(css|recipes|patterns)(?:\/index(?:\.mjs)?)?$/;

/** A minimal ESTree shape: what the walker reads. */
interface Node {
  readonly type: string;
  readonly start: number;
  readonly end: number;
  readonly [key: string]: unknown;
}

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string';

function walk(
  node: Node,
  visit: (node: Node, parent: Node | null) => void,
  parent: Node | null = null,
): void {
  visit(node, parent);
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type' || key === 'start' || key === 'end') continue;
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) walk(item, visit, node);
    } else if (isNode(value)) {
      walk(value, visit, node);
    }
  }
}

const NOT_STATIC = Symbol('not static');
type Static = string | number | boolean | null | undefined | readonly Static[] | { [key: string]: Static };

/** The value of a literal expression (strings, numbers, booleans, null, and arrays and objects of them). */
export function staticValue(node: Node): Static | typeof NOT_STATIC {
  switch (node.type) {
    case 'Literal': {
      const value = node.value;
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return value as Static;
      return NOT_STATIC;
    }
    case 'TemplateLiteral': {
      const quasis = node.quasis as Node[];
      if ((node.expressions as Node[]).length > 0 || quasis.length !== 1) return NOT_STATIC;
      return (quasis[0]?.value as { cooked?: string } | undefined)?.cooked ?? NOT_STATIC;
    }
    case 'UnaryExpression': {
      const argument = staticValue(node.argument as Node);
      return node.operator === '-' && typeof argument === 'number' ? -argument : NOT_STATIC;
    }
    case 'Identifier':
      return node.name === 'undefined' ? undefined : NOT_STATIC;
    case 'ArrayExpression': {
      const items: Static[] = [];
      for (const element of node.elements as (Node | null)[]) {
        const value =
          element === null || element.type === 'SpreadElement' ? NOT_STATIC : staticValue(element);
        if (value === NOT_STATIC) return NOT_STATIC;
        items.push(value);
      }
      return items;
    }
    case 'ObjectExpression': {
      const object: Record<string, Static> = {};
      for (const property of node.properties as Node[]) {
        if (
          property.type !== 'Property' ||
          property.kind !== 'init' ||
          property.method ||
          property.shorthand
        ) {
          return NOT_STATIC;
        }
        const key = property.key as Node;
        const name = property.computed
          ? key.type === 'Literal'
            ? String(key.value)
            : null
          : key.type === 'Identifier'
            ? (key.name as string)
            : String(key.value);
        const value = staticValue(property.value as Node);
        if (name === null || value === NOT_STATIC) return NOT_STATIC;
        object[name] = value;
      }
      return object;
    }
    default:
      return NOT_STATIC;
  }
}

/** A class string, or a slot recipe's object of class strings per slot: what can be written as a literal. */
const isClassNames = (value: unknown): value is string | Record<string, string> =>
  typeof value === 'string' ||
  (typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    Object.values(value).every((slot) => typeof slot === 'string'));

/** The runtime export a local name was imported as, and from which styled-system module. */
export interface StyleImport {
  readonly kind: Kind;
  readonly imported: string;
  /** The module as written in the import, resolved against the importing file. */
  readonly modulePath: string;
}

/** Loads a styled-system module's exports (the generated runtime itself). */
export type LoadRuntime = (modulePath: string) => Promise<Record<string, unknown>>;

export const loadRuntimeFromDisk: LoadRuntime = (modulePath) =>
  import(pathToFileURL(`${modulePath}/index.mjs`).href) as Promise<Record<string, unknown>>;

/** How many times each name is read as a variable (not as a property name or an import binding) outside `skip`. */
function referencedNames(program: Node, skip: readonly Node[]): Map<string, number> {
  const counts = new Map<string, number>();
  walk(program, (node, parent) => {
    if (node.type !== 'Identifier' || parent === null) return;
    if (parent.type === 'ImportSpecifier' || parent.type === 'ImportDefaultSpecifier') return;
    if (parent.type === 'ImportNamespaceSpecifier') return;
    if (parent.type === 'MemberExpression' && parent.property === node && !parent.computed) return;
    if (parent.type === 'Property' && parent.key === node && !parent.computed && !parent.shorthand) return;
    if (skip.some((range) => range.start <= node.start && node.end <= range.end)) return;
    counts.set(node.name as string, (counts.get(node.name as string) ?? 0) + 1);
  });
  return counts;
}

/** The styled-system imports of a module: local name -> what it is. Names bound twice are left out. */
function styleImports(program: Node, file: string): Map<string, StyleImport> {
  const imports = new Map<string, StyleImport>();
  for (const statement of program.body as Node[]) {
    if (statement.type !== 'ImportDeclaration') continue;
    const source = (statement.source as Node).value as string;
    const kind = STYLED_SYSTEM_IMPORT.exec(source)?.[1] as Kind | undefined;
    if (!kind || !source.startsWith('.')) continue;
    const modulePath = path.resolve(path.dirname(file), source.replace(/\/index(?:\.mjs)?$/, ''));
    for (const specifier of statement.specifiers as Node[]) {
      if (specifier.type !== 'ImportSpecifier') continue;
      const imported = (specifier.imported as Node).name as string;
      if (!FOLDABLE[kind](imported)) continue;
      imports.set((specifier.local as Node).name as string, { kind, imported, modulePath });
    }
  }
  // A local binding of the same name anywhere (a variable, destructured or not, a parameter, a caught error)
  // could shadow the import: skip it.
  walk(program, (node) => {
    const bindings = [
      ...(node.type === 'VariableDeclarator' || node.type.endsWith('Declaration') ? [node.id] : []),
      ...(node.type === 'CatchClause' ? [node.param] : []),
      ...((node.params as unknown[] | undefined) ?? []),
    ].filter(isNode);
    for (const binding of bindings) {
      walk(binding, (inner) => inner.type === 'Identifier' && imports.delete(inner.name as string));
    }
  });
  return imports;
}

/**
 * Replaces every call of a styled-system function whose arguments are all literals with the class string it
 * returns, then drops the import specifiers nothing refers to any more. Returns `null` when nothing changed.
 */
export async function foldStaticStyles(
  code: string,
  file: string,
  loadRuntime: LoadRuntime,
): Promise<{ code: string; map: SourceMap } | null> {
  if (!code.includes('styled-system')) return null;
  const program = parseAst(code) as unknown as Node;
  const imports = styleImports(program, file);
  if (imports.size === 0) return null;

  const calls: { node: Node; style: StyleImport; args: Static[] }[] = [];
  walk(program, (node) => {
    if (node.type !== 'CallExpression' || (node.callee as Node).type !== 'Identifier') return;
    const style = imports.get((node.callee as Node).name as string);
    if (!style) return;
    const args = (node.arguments as Node[]).map(staticValue);
    if (args.every((arg) => arg !== NOT_STATIC)) calls.push({ node, style, args: args as Static[] });
  });

  const output = new MagicString(code);
  const folded: Node[] = [];
  for (const { node, style, args } of calls) {
    const fn = (await loadRuntime(style.modulePath))[style.imported];
    const result: unknown = typeof fn === 'function' ? fn(...args) : undefined;
    if (!isClassNames(result)) continue;
    output.overwrite(node.start, node.end, JSON.stringify(result));
    folded.push(node);
  }
  if (folded.length === 0) return null;

  const stillUsed = referencedNames(program, folded);
  for (const statement of program.body as Node[]) {
    if (statement.type !== 'ImportDeclaration') continue;
    const specifiers = statement.specifiers as Node[];
    const unused = specifiers.filter((specifier) => {
      const local = (specifier.local as Node).name as string;
      return imports.has(local) && !stillUsed.has(local);
    });
    if (unused.length === 0) continue;
    const kept = specifiers.filter((specifier) => !unused.includes(specifier));
    const names = kept.map((specifier) => code.slice(specifier.start, specifier.end)).join(', ');
    const source = (statement.source as Node).raw as string;
    output.overwrite(
      statement.start,
      statement.end,
      kept.length === 0 ? '' : `import { ${names} } from ${source};`,
    );
  }
  return { code: output.toString(), map: output.generateMap({ hires: true, source: file }) };
}

/**
 * The build plugin: folds static style calls in the app's own modules, and tells the bundler that the
 * generated styled-system modules have no side effects, so that a runtime module no call needs any more (the
 * utility table in `css.mjs`, built by top-level code) is dropped instead of kept for its top-level statements.
 */
export function staticStyles(loadRuntime: LoadRuntime = loadRuntimeFromDisk): Plugin {
  return {
    name: 'campaign-web:static-styles',
    apply: 'build',
    enforce: 'post',
    async transform(code, id) {
      const file = id.split('?')[0] ?? id;
      if (file.includes('/styled-system/')) {
        // Only its JavaScript: a stylesheet imported for its effect must stay.
        return /\.m?js$/.test(file) ? { code, map: null, moduleSideEffects: false } : null;
      }
      if (file.includes('/node_modules/') || !/\.[jt]sx?$/.test(file)) return null;
      return foldStaticStyles(code, file, loadRuntime);
    },
  };
}
