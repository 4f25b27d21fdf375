// Mutants of the kinds real bugs take that Stryker has no mutator for (`npm run test:mutation` runs them after
// Stryker; see the README's "Mutation testing" section):
//   MathClamp   `Math.min(a, b)` / `Math.max(a, b)` becomes `a`, or `b`: a cap or a floor forgotten
//   DropAwait   `await x` becomes `x`: a promise no longer waited for
//   DropAction  one entry of an `actions` / `entry` / `exit` list removed: a side effect or assignment forgotten
//   SwapGuards  two adjacent transitions of a list, the first guarded, change places: the wrong one wins
//   CleanupFirst  a clean-up runs before the awaited work it guards: a `finally` body moved in front of an awaited
//               statement of its `try`, or a clean-up call (`dispose()`, `clearTimeout(…)`, `release()`, …) moved
//               in front of the awaited statement before it: a timer or lock let go while the work still runs
//   DropWhere   one `.where(…)` of a query-builder chain (Kysely) removed: a filter forgotten, more rows read,
//               changed or deleted than the query may touch
// Each mutant runs the test files that import its source file (directly or through other modules), in one
// Vitest instance that serves the mutated source in place of the file, stopping at the first failure.
// Results are kept in scripts/mutation/baseline/kinds.json (committed) by source and test file hash: a re-run (CI)
// tests only the mutants whose file or covering tests changed. Survivors need a reason in
// scripts/mutation/survivors/, like Stryker's.
//
//   node scripts/mutation/mutant-kinds.mjs               run (incrementally), print the score per kind and per folder
//   node scripts/mutation/mutant-kinds.mjs --list        list the mutants without running them
//   node scripts/mutation/mutant-kinds.mjs --force       rerun every mutant
//   node scripts/mutation/mutant-kinds.mjs --ci          check the committed results, run nothing: fail on a
//                                                        target file without results or a survivor without a
//                                                        recorded reason; list the files whose results are stale
//                                                        (a session's run refreshes them)
//   node scripts/mutation/mutant-kinds.mjs --files api/,src/pages/   only the sources under these paths
//   node scripts/mutation/mutant-kinds.mjs --at api/plugin.ts:108,api/rateLimits.ts:80   of the mutants to run,
//                                                        only those on these lines (a test written for them); the
//                                                        others keep their stored results, stale, for a later run
//   node scripts/mutation/mutant-kinds.mjs --timeout 120 the most a mutant's tests may run before it is a Timeout
//                                                        (twice their time without a mutant plus 15 s, at most this;
//                                                        300 s by default)
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse } from '@babel/parser';
import { HOME, KINDS_RESULTS, OUT_OF_PROCESS_TESTS, REASONS_DIR } from './runs.mjs';

export const TARGETS = [
  'machines',
  'core',
  'src/platform',
  'src/pages/registry.ts',
  'src/ui/format.ts',
  'api',
];
export const RESULTS = KINDS_RESULTS;

const oneLine = (text) => text.replace(/\s+/g, ' ').trim();

/** Every node of a Babel AST, depth first, with its parent. */
function* walk(node, parent = null) {
  if (!node || typeof node.type !== 'string') return;
  yield [node, parent];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'extra') continue;
    if (Array.isArray(value)) for (const child of value) yield* walk(child, node);
    else if (value && typeof value.type === 'string') yield* walk(value, node);
  }
}

const keyName = (property) => (property.key?.type === 'Identifier' ? property.key.name : property.key?.value);

const isGuarded = (node) =>
  node?.type === 'ObjectExpression' &&
  node.properties.some((property) => property.type === 'ObjectProperty' && keyName(property) === 'guard');

/** A transition as SwapGuards names it: its guard, or its target when it has none. */
function labelOf(transition, source) {
  const property = (name) =>
    transition.properties.find((p) => p.type === 'ObjectProperty' && keyName(p) === name);
  const guard = property('guard');
  if (guard) return `guard: ${source.slice(guard.value.start, guard.value.end)}`;
  const target = property('target');
  return target ? `unguarded, target: ${source.slice(target.value.start, target.value.end)}` : 'unguarded';
}

const FUNCTIONS = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

/** The first `await` (or `for await`) of a statement, not counting those inside functions it defines. */
function awaitIn(node) {
  for (const [inner] of walk(node)) {
    if (inner !== node && FUNCTIONS.has(inner.type)) continue;
    if (inner.type === 'AwaitExpression' && !insideFunction(node, inner)) return inner;
    if (inner.type === 'ForOfStatement' && inner.await && !insideFunction(node, inner)) return inner;
  }
  return null;
}

/** Whether `target` sits inside a function defined within `root` (walk() does not prune, so this checks). */
function insideFunction(root, target) {
  const search = (node, inFunction) => {
    if (!node || typeof node.type !== 'string') return null;
    if (node === target) return inFunction;
    const nested = inFunction || (node !== root && FUNCTIONS.has(node.type));
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'extra')
        continue;
      for (const child of Array.isArray(value) ? value : [value]) {
        const found = search(child, nested);
        if (found !== null) return found;
      }
    }
    return null;
  };
  return search(root, false) === true;
}

const shorten = (text, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** An awaited statement as CleanupFirst names it: `await readBody(…)`, `await x`, `for await`. */
function awaitLabel(found, source) {
  if (found.type === 'ForOfStatement') return 'for await (…)';
  const argument = found.argument;
  const call = argument.type === 'CallExpression' || argument.type === 'OptionalCallExpression';
  const text = call
    ? `${source.slice(argument.callee.start, argument.callee.end)}(${argument.arguments.length > 0 ? '…' : ''})`
    : source.slice(argument.start, argument.end);
  return `await ${shorten(oneLine(text))}`;
}

/** What a clean-up call is called: `timed.dispose()`, `clearTimeout(timer)`, `await release()`. */
const CLEANUPS = new Set([
  'dispose',
  'release',
  'close',
  'destroy',
  'clearTimeout',
  'clearInterval',
  'unsubscribe',
]);

function cleanupCall(statement) {
  if (statement.type !== 'ExpressionStatement') return false;
  let expression = statement.expression;
  if (expression.type === 'AwaitExpression') expression = expression.argument;
  if (expression.type !== 'CallExpression' && expression.type !== 'OptionalCallExpression') return false;
  const { callee } = expression;
  if (callee.type === 'Identifier') return CLEANUPS.has(callee.name);
  return (
    (callee.type === 'MemberExpression' || callee.type === 'OptionalMemberExpression') &&
    !callee.computed &&
    CLEANUPS.has(callee.property.name)
  );
}

/** The names a statement declares (`const { a, b: [c] } = …` declares a and c). */
function declaredNames(statement) {
  if (statement.type !== 'VariableDeclaration') return new Set();
  const names = new Set();
  for (const declarator of statement.declarations)
    for (const [node, parent] of walk(declarator.id))
      if (
        node.type === 'Identifier' &&
        !(parent?.type === 'ObjectProperty' && parent.key === node && !parent.shorthand)
      )
        names.add(node.name);
  return names;
}

const usesAny = (node, names) =>
  names.size > 0 && [...walk(node)].some(([inner]) => inner.type === 'Identifier' && names.has(inner.name));

const statementsOf = (node) =>
  node?.type === 'BlockStatement' || node?.type === 'Program' || node?.type === 'StaticBlock'
    ? node.body
    : null;

/**
 * The mutant kinds. `find(node, parent, source)` returns the edits a node gives: `{ start, end, text }` replaces
 * source[start, end) with text; `original` and `replacement` name the mutant (as in scripts/mutation/survivors/);
 * `at`, when given, is where the mutant's line is counted (the start of the edit otherwise).
 */
export const KINDS = {
  MathClamp: (node, _parent, source) => {
    if (node.type !== 'CallExpression' || node.arguments.length !== 2) return [];
    const { callee } = node;
    if (
      callee.type !== 'MemberExpression' ||
      callee.object.type !== 'Identifier' ||
      callee.object.name !== 'Math' ||
      !['min', 'max'].includes(callee.property.name)
    )
      return [];
    return node.arguments.map((argument) => {
      const text = source.slice(argument.start, argument.end);
      return { start: node.start, end: node.end, text: `(${text})`, replacement: text };
    });
  },
  DropAwait: (node, _parent, source) => {
    if (node.type !== 'AwaitExpression') return [];
    const text = source.slice(node.argument.start, node.argument.end);
    return [{ start: node.start, end: node.end, text: `(${text})`, replacement: text }];
  },
  DropAction: (node, parent, source) => {
    if (node.type !== 'ArrayExpression' || parent?.type !== 'ObjectProperty' || parent.value !== node)
      return [];
    if (!['actions', 'entry', 'exit'].includes(keyName(parent))) return [];
    const elements = node.elements.filter(Boolean);
    return elements.map((element, index) => {
      // The element with the comma after it (or, for the last, the one before it).
      const start = index < elements.length - 1 || index === 0 ? element.start : elements[index - 1].end;
      const end = index < elements.length - 1 ? elements[index + 1].start : element.end;
      return {
        start,
        end,
        text: '',
        original: source.slice(element.start, element.end),
        replacement: '',
      };
    });
  },
  SwapGuards: (node, _parent, source) => {
    if (node.type !== 'ArrayExpression') return [];
    const edits = [];
    for (let index = 0; index + 1 < node.elements.length; index += 1) {
      const [first, second] = [node.elements[index], node.elements[index + 1]];
      if (!isGuarded(first) || second?.type !== 'ObjectExpression') continue;
      const a = source.slice(first.start, first.end);
      const b = source.slice(second.start, second.end);
      const between = source.slice(first.end, second.start);
      const [labelA, labelB] = [labelOf(first, source), labelOf(second, source)];
      edits.push({
        start: first.start,
        end: second.end,
        text: `${b}${between}${a}`,
        original: `${labelA}; ${labelB}`,
        replacement: `${labelB}; ${labelA}`,
      });
    }
    return edits;
  },
  CleanupFirst: (node, parent, source) => {
    // A finally body moved in front of each awaited statement of its try block, and left empty.
    if (node.type === 'TryStatement' && node.finalizer && node.finalizer.body.length > 0) {
      const cleanup = node.finalizer.body;
      const cleanupText = source.slice(cleanup[0].start, cleanup.at(-1).end);
      return node.block.body.flatMap((statement) => {
        const found = awaitIn(statement);
        if (!found) return [];
        const label = awaitLabel(found, source);
        return [
          {
            start: statement.start,
            end: node.finalizer.end,
            text: `${cleanupText} ${source.slice(statement.start, node.finalizer.start)}{}`,
            original: `${label} … finally { ${oneLine(cleanupText)} }`,
            replacement: `${oneLine(cleanupText)} ${label} … finally {}`,
          },
        ];
      });
    }
    // A clean-up call moved in front of the awaited statement before it (unless it needs what that one declares).
    const siblings = statementsOf(parent);
    if (!siblings || !cleanupCall(node)) return [];
    const index = siblings.indexOf(node);
    for (let before = index - 1; before >= 0; before -= 1) {
      const found = awaitIn(siblings[before]);
      if (!found) continue;
      if (usesAny(node, declaredNames(siblings[before]))) return [];
      const text = source.slice(node.start, node.end);
      const label = awaitLabel(found, source);
      return [
        {
          start: siblings[before].start,
          end: node.end,
          text: `${text} ${source.slice(siblings[before].start, node.start).trimEnd()}`,
          at: node.start,
          original: `${label}; ${oneLine(text)}`,
          replacement: `${oneLine(text)} ${label};`,
        },
      ];
    }
    return [];
  },
  DropWhere: (node, _parent, source) => {
    if (node.type !== 'CallExpression' && node.type !== 'OptionalCallExpression') return [];
    const { callee } = node;
    if (
      (callee.type !== 'MemberExpression' && callee.type !== 'OptionalMemberExpression') ||
      callee.computed ||
      !['where', 'whereRef'].includes(callee.property.name)
    )
      return [];
    return [
      {
        start: node.start,
        end: node.end,
        text: `(${source.slice(callee.object.start, callee.object.end)})`,
        at: callee.property.start,
        original: `.${source.slice(callee.property.start, node.end)}`,
        replacement: '',
      },
    ];
  },
};

/** The mutants of one source text: `{ kind, line, start, end, text, original, replacement }`, in source order. */
export function mutantsOf(source, kinds = Object.keys(KINDS)) {
  const ast = parse(source, { sourceType: 'module', plugins: ['typescript', 'jsx'], errorRecovery: false });
  const mutants = [];
  for (const [node, parent] of walk(ast.program)) {
    for (const kind of kinds) {
      for (const edit of KINDS[kind](node, parent, source)) {
        mutants.push({
          kind,
          ...(edit.at === undefined ? {} : { at: edit.at }),
          line: source.slice(0, edit.at ?? edit.start).split('\n').length,
          start: edit.start,
          end: edit.end,
          text: edit.text,
          original: oneLine(edit.original ?? source.slice(node.start, node.end)),
          replacement: oneLine(edit.replacement),
        });
      }
    }
  }
  // By where each mutant is (a dropped `.where` is at its own line, not at its chain's start).
  return mutants.sort((a, b) => (a.at ?? a.start) - (b.at ?? b.start) || a.kind.localeCompare(b.kind));
}

/** The source with one mutant applied. */
export const apply = (source, mutant) =>
  source.slice(0, mutant.start) + mutant.text + source.slice(mutant.end);

/** The TypeScript sources under the targets (test files and declarations left out). */
export function sourceFiles(targets = TARGETS, root = process.cwd()) {
  const files = [];
  const visit = (path) => {
    const full = resolve(root, path);
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const entry of readdirSync(full).sort()) visit(join(path, entry));
    } else if (/\.tsx?$/.test(path) && !/\.(test|d)\.tsx?$/.test(path)) files.push(path);
  };
  for (const target of targets) visit(target);
  return files;
}

/**
 * The test files that reach a source file through relative imports (static or dynamic), followed through
 * sources and test helpers. Not Stryker's per-test coverage: that exists only where a Stryker run has been, and
 * would change (and so retest every mutant of the file) whenever one is added.
 */
export function importingTests(file, root = process.cwd()) {
  const target = resolve(root, file);
  const imports = new Map();
  const importsOf = (path) => {
    if (!imports.has(path)) {
      const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
      const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g)].map(
        (m) => m[1],
      );
      const resolved = specifiers.flatMap((specifier) => {
        const base = resolve(path, '..', specifier);
        const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find(
          (candidate) => existsSync(candidate) && statSync(candidate).isFile(),
        );
        return found ? [found] : [];
      });
      imports.set(path, resolved);
    }
    return imports.get(path);
  };
  const reaches = (start) => {
    const seen = new Set([start]);
    const queue = [start];
    while (queue.length > 0) {
      const next = queue.pop();
      if (next === target) return true;
      for (const dependency of importsOf(next)) {
        if (!seen.has(dependency) && !dependency.includes('node_modules')) {
          seen.add(dependency);
          queue.push(dependency);
        }
      }
    }
    return false;
  };
  // Every test file of the unit run (tests/**/*.test.ts(x), as vitest.config.ts has it), in folders too.
  const testFiles = (folder) =>
    readdirSync(resolve(root, folder), { withFileTypes: true }).flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return testFiles(path);
      return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
    });
  return testFiles('tests')
    .filter((test) => !OUT_OF_PROCESS_TESTS.includes(test) && reaches(resolve(root, test)))
    .sort();
}

const hash = (text) => createHash('sha256').update(text).digest('hex').slice(0, 16);

/** A mutant's identity across runs: file, kind, original, replacement and which occurrence of those it is. */
function identify(file, mutants) {
  const seen = new Map();
  return mutants.map((mutant) => {
    const key = [file, mutant.kind, mutant.original, mutant.replacement].join('\u0000');
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return { ...mutant, file, id: `${key}\u0000${occurrence}` };
  });
}

/**
 * Runs mutants in one Vitest instance: a plugin serves each mutant's source in place of its file, and every run
 * starts from freshly transformed modules. A mutant is killed when a covering test fails (or its file fails to
 * load), survives when they all pass.
 */
export async function createRunner({ root = process.cwd(), config, timeoutMs = 300_000 } = {}) {
  const { createVitest } = await import('vitest/node');
  let current = null;
  const plugin = {
    name: 'mutant-kinds:serve-mutant',
    enforce: 'pre',
    load(id) {
      if (current && id.split('?')[0] === current.path) return current.code;
      return undefined;
    },
  };
  const vitest = await createVitest(
    'test',
    // No file-system module cache (Vitest 5's default): it keys a module by the file on disk, so it would serve
    // the original source, or a mutant of an earlier run, in place of the mutant this plugin loads.
    { root, config, watch: false, reporters: [{}], bail: 1, passWithNoTests: false, fsModuleCache: false },
    { plugins: [plugin] },
  );
  const invalidate = (path) => {
    vitest.invalidateFile(path);
    for (const project of vitest.projects) {
      // Vitest 5 runs each test file in one of Vite's environments (ssr, client, its own): each has a graph.
      for (const environment of Object.values(project.vite.environments)) {
        const graph = environment.moduleGraph;
        for (const module of graph.getModulesByFile(path) ?? []) graph.invalidateModule(module);
      }
    }
  };
  /**
   * How long a mutant may keep a set of tests running before it counts as a Timeout (detected): twice what they
   * take without a mutant, plus 15 s, at most `timeoutMs`, as Stryker's timeoutFactor does. Measured once per set
   * of tests, the first time a mutant needs it; tests that fail without any mutant stop the run, since they would
   * count every mutant as killed. A fixed timeout either waited minutes for every hung mutant or counted slow
   * tests on a loaded machine as kills.
   */
  const budgets = new Map();
  const budgetOf = async (file, tests) => {
    const key = tests.join('\n');
    if (!budgets.has(key)) {
      const started = Date.now();
      const result = await runner.runFiles(file, null, tests);
      if (result.status !== 'Survived')
        throw new Error(
          `mutant kinds: ${tests.join(', ')} fail without a mutant (${result.status}); fix them first`,
        );
      budgets.set(key, Math.min(timeoutMs, 2 * (Date.now() - started) + 15_000));
    }
    return budgets.get(key);
  };
  const runner = {
    /**
     * The tests nearest the file first (`testTiers`), after the one that killed the mutant last time if any
     * (`tiersFor`): most mutants fail there in seconds, and only a mutant they let live runs the next tier (every test file that reaches a machine, about 45, took a minute a mutant on
     * this machine; every API test file, several).
     */
    async run(file, mutant, tests, killer) {
      let result = { status: 'Survived' };
      for (const tier of tiersFor(file, tests, killer)) {
        result = await runner.runFiles(file, mutant, tier, await budgetOf(file, tier));
        if (result.status !== 'Survived') return result;
      }
      return result;
    },
    /** `mutant` null: the tests against the original source. */
    async runFiles(file, mutant, tests, budgetMs = timeoutMs) {
      const path = resolve(root, file);
      // Vitest marks the process as failed when a test fails, as it does for every killed mutant.
      const exitCode = process.exitCode;
      current = mutant ? { path, code: apply(readFileSync(path, 'utf8'), mutant) } : null;
      invalidate(path);
      let timer;
      const timeout = new Promise((done) => {
        timer = setTimeout(() => done('timeout'), budgetMs);
      });
      try {
        const result = await Promise.race([
          vitest.runTestFiles(tests.map((test) => resolve(root, test))),
          timeout,
        ]);
        if (result === 'timeout') {
          await vitest.cancelCurrentRun('keyboard-input');
          return { status: 'Timeout' };
        }
        // Vitest reports every test module it has run in this instance, earlier runs' included: only this
        // run's tests decide (an earlier mutant's failure once counted as a kill of every later one).
        const ran = new Set(tests.map((test) => resolve(root, test)));
        const failed = result.testModules.find((module) => ran.has(module.moduleId) && !module.ok());
        if (failed) return { status: 'Killed', killedBy: relative(root, failed.moduleId) };
        if (result.unhandledErrors.length > 0) return { status: 'Killed', killedBy: 'unhandled error' };
        return { status: 'Survived' };
      } finally {
        clearTimeout(timer);
        process.exitCode = exitCode;
        current = null;
        invalidate(path);
      }
    },
    close: () => vitest.close(),
  };
  return runner;
}

/**
 * The test files of `tests` in the source file's mirror folder: `machines/colorMode/colorMode.machine.ts` →
 * `tests/machines/colorMode/`, `src/platform/api.ts` → `tests/platform/` (src/ has no folder of its own under
 * tests/), `api/database/open.ts` → `tests/api/database/` and below; a mirror folder without tests gives way to
 * the one above it (`api/routes/session.ts` → `tests/api/`), up to the top folder.
 */
export function nearTests(file, tests) {
  const folders = file
    .replace(/^src\//, '')
    .split('/')
    .slice(0, -1);
  for (let depth = folders.length; depth > 0; depth -= 1) {
    const prefix = `tests/${folders.slice(0, depth).join('/')}/`;
    const near = tests.filter((test) => test.startsWith(prefix));
    if (near.length > 0 || depth === 1) return near;
  }
  return [];
}

/**
 * The order a mutant's tests run in, nearest first, each tier only if the one before let the mutant live: the
 * tests named for the file (`api/accounts.ts` → `tests/api/accounts/…`, `api/routes/session.ts` →
 * `tests/api/session.test.ts`), then the rest of its mirror folder (`nearTests`): its own files, then its
 * subfolders'; then every other test that imports it. Empty tiers are left out.
 */
export function testTiers(file, tests) {
  const stem = file
    .split('/')
    .at(-1)
    .replace(/\.[cm]?[jt]sx?$/, '');
  const named = tests.filter((test) =>
    test
      .split('/')
      .slice(1)
      .some((part) => part === stem || part === `${stem}.test.ts` || part === `${stem}.test.tsx`),
  );
  const near = nearTests(file, tests).filter((test) => !named.includes(test));
  // The mirror folder's own files before its subfolders': tests/api/database/ opens databases from nothing and
  // takes half of tests/api/'s time, for mutants of api/*.ts that the files above it mostly catch first.
  const depthOf = (test) => test.split('/').length;
  const top = Math.min(...near.map(depthOf));
  const nearest = near.filter((test) => depthOf(test) === top);
  const below = near.filter((test) => depthOf(test) > top);
  const rest = tests.filter((test) => !named.includes(test) && !near.includes(test));
  return [named, nearest, below, rest].filter((tier) => tier.length > 0);
}

/**
 * `testTiers`, with the test that killed the mutant last time (`killer`, from its stored result) in a tier of its
 * own before all others, if it still reaches the file: a mutant re-run because its file's tests changed is almost
 * always killed by the same test again, and a migration's mutant then waits seconds for one file instead of
 * minutes for the six of its mirror folder.
 */
export function tiersFor(file, tests, killer) {
  const tiers = testTiers(file, tests);
  if (!killer || !tests.includes(killer)) return tiers;
  return [
    [killer],
    ...tiers.map((tier) => tier.filter((test) => test !== killer)).filter((tier) => tier.length > 0),
  ];
}

/** Mutants by file with their covering tests and the hash that says whether a stored result still holds. */
export function plan(root = process.cwd(), prefixes = []) {
  const testHash = new Map();
  const hashOfTest = (test) => {
    if (!testHash.has(test)) {
      const path = resolve(root, test);
      testHash.set(test, existsSync(path) ? hash(readFileSync(path, 'utf8')) : 'missing');
    }
    return testHash.get(test);
  };
  const chosen = sourceFiles(TARGETS, root).filter(
    (file) => prefixes.length === 0 || prefixes.some((prefix) => file.startsWith(prefix)),
  );
  return chosen.flatMap((file) => {
    const source = readFileSync(resolve(root, file), 'utf8');
    const tests = importingTests(file, root);
    const sourceHash = hash(source);
    const stamp = hash([sourceHash, ...tests.map((test) => `${test}:${hashOfTest(test)}`)].join('\n'));
    const testHashes = Object.fromEntries(tests.map((test) => [test, hashOfTest(test)]));
    return identify(file, mutantsOf(source)).map((mutant) => ({
      ...mutant,
      tests,
      stamp,
      sourceHash,
      testHashes,
    }));
  });
}

export function folderOf(file) {
  return TARGETS.find((target) => file === target || file.startsWith(`${target}/`)) ?? file;
}

export function score(results) {
  const detected = results.filter((r) => r.status === 'Killed' || r.status === 'Timeout').length;
  const valid = results.filter((r) => r.status !== 'Ignored').length;
  return { detected, valid, score: valid === 0 ? 100 : (100 * detected) / valid };
}

/**
 * Whether a stored result still holds for the mutant as planned now: its file and every test that reaches it are
 * as they were (the stamp), or, for a mutant a test killed, its file and that test are: a test that fails with the
 * mutant fails with it still, whatever other tests do, as Stryker's incremental mode reasons. (A machine is reached
 * by about 45 test files; with the stamp alone, any one of them changing re-ran every mutant of it.)
 */
export function stillHolds(previous, mutant) {
  if (previous.stamp === mutant.stamp) return true;
  return (
    previous.status === 'Killed' &&
    previous.sourceHash !== undefined &&
    previous.sourceHash === mutant.sourceHash &&
    previous.killerHash !== undefined &&
    mutant.testHashes?.[previous.killedBy] === previous.killerHash
  );
}

/**
 * What a run does with each mutant: reuse its stored result (same id, same stamp), or, with no tests that reach
 * its file, record it as not covered, or run it. In CI (`ci`), a file with no stored result at all is never
 * tested from scratch (hours here for machines/ and api/): it is `missing`, and the run fails, since every file
 * the kinds target must have its results committed. A mutant whose file or tests changed since its result was
 * committed is to run, and in CI its committed result also counts (marked `stale`) until a session re-runs it.
 */
export function triage(mutants, stored, { ci = false } = {}) {
  const results = [];
  const toRun = [];
  const baselined = new Set([...stored.values()].map((entry) => entry.file));
  const missing = new Set();
  for (const mutant of mutants) {
    const previous = stored.get(mutant.id);
    if (previous && stillHolds(previous, mutant)) results.push({ ...previous, line: mutant.line });
    else if (ci && !baselined.has(mutant.file)) missing.add(mutant.file);
    else if (mutant.tests.length === 0) results.push({ ...mutant, status: 'NoCoverage' });
    else {
      // In CI a changed mutant is listed, not run; its committed result still counts, as Stryker's do there.
      if (ci && previous) results.push({ ...previous, line: mutant.line, stale: true });
      toRun.push(mutant);
    }
  }
  return { results, toRun, missing };
}

/** Of `toRun`, the mutants on the lines `sites` names (`file:line`); `sites` undefined: all of them. */
export function atSites(toRun, sites) {
  if (sites === undefined) return toRun;
  const wanted = new Set(sites.split(','));
  return toRun.filter((mutant) => wanted.has(`${mutant.file}:${mutant.line}`));
}

async function main() {
  const args = process.argv.slice(2);
  const ci = args.includes('--ci');
  const { explain, kindSurvivorsOf, readReasons } = await import('./mutation-survivors.mjs');
  const filesAt = args.indexOf('--files');
  const mutants = plan(process.cwd(), filesAt >= 0 ? args[filesAt + 1].split(',') : []);
  if (args.includes('--list')) {
    for (const m of mutants)
      console.log(`${m.file}:${m.line} ${m.kind}: ${m.original} -> ${m.replacement || '(removed)'}`);
    console.log(`${mutants.length} mutants`);
    return;
  }
  const stored =
    existsSync(RESULTS) && !args.includes('--force')
      ? new Map(JSON.parse(readFileSync(RESULTS, 'utf8')).map((entry) => [entry.id, entry]))
      : new Map();
  const started = Date.now();
  const { results, toRun, missing } = triage(mutants, stored, { ci });
  const missingMessage =
    `mutant kinds: ${missing.size} file(s) they target have no results in ${RESULTS} (${[...missing].join(', ')}); ` +
    `\`node ${HOME}/mutant-kinds.mjs --files <path>\` adds them, to be committed with their survivors' reasons`;
  if (missing.size > 0) {
    // Every file the kinds target must have its results committed: a file without any would leave its guards,
    // clamps and action lists out of the score unseen.
    console.error(`${missingMessage}; not run here`);
    if (ci) process.exitCode = 1;
  }
  console.log(
    `mutant kinds: ${mutants.length} mutants, ${mutants.length - toRun.length} reused or not covered, ${toRun.length} to run`,
  );
  if (ci && toRun.length > 0) {
    // A kind mutant runs every test file that reaches its source: about 35 s for a machine's, five minutes for
    // the API's, on 2 cores. CI has minutes, so it checks what is committed; a session re-runs and commits.
    const stale = [...new Set(toRun.map((mutant) => mutant.file))];
    console.error(
      `mutant kinds: ${toRun.length} mutant(s) in ${stale.length} file(s) changed, or their tests did, since their ` +
        `results were committed (${stale.join(', ')}); not run in CI: \`node ${HOME}/mutant-kinds.mjs\` re-runs them`,
    );
    toRun.length = 0;
  }
  const at = args.indexOf('--at');
  if (at >= 0) {
    const picked = atSites(toRun, args[at + 1]);
    console.log(
      `mutant kinds: --at: ${picked.length} of the ${toRun.length} to run; the others keep their results`,
    );
    toRun.splice(0, toRun.length, ...picked);
  }
  if (toRun.length > 0) {
    const timeoutAt = args.indexOf('--timeout');
    const runner = await createRunner({
      config: `${HOME}/vitest.kinds.config.ts`,
      ...(timeoutAt >= 0 ? { timeoutMs: Number(args[timeoutAt + 1]) * 1000 } : {}),
    });
    try {
      for (const [index, mutant] of toRun.entries()) {
        const result = await runner.run(mutant.file, mutant, mutant.tests, stored.get(mutant.id)?.killedBy);
        const killerHash = result.killedBy ? mutant.testHashes[result.killedBy] : undefined;
        results.push({ ...mutant, ...result, ...(killerHash ? { killerHash } : {}) });
        console.log(
          `mutant kinds: ${index + 1}/${toRun.length} ${mutant.file}:${mutant.line} ${mutant.kind} ${result.status}`,
        );
        // Keep what finished, so an interrupted run resumes where it stopped.
        save(results, stored, mutants);
      }
    } finally {
      await runner.close();
    }
  }
  if (!ci) save(results, stored, mutants);
  report(results, ((Date.now() - started) / 60_000).toFixed(1));
  const unexplained = explain(kindSurvivorsOf(results), readReasons()).filter((s) => s.reason === null);
  if (unexplained.length > 0) {
    console.error(
      `mutant kinds: ${unexplained.length} surviving mutant(s) have no reason in ${REASONS_DIR}/ ` +
        '(mutator = the kind, original and replacement as listed here):',
    );
    for (const s of unexplained)
      console.error(
        `  ${s.file}:${s.line} ${s.kind} (${s.status}): ${s.original} -> ${s.replacement || '(removed)'}`,
      );
  }
  if (ci && unexplained.length > 0) process.exit(1);
}

/**
 * What the results file holds after a run (or after each mutant of one): the stored entries with this run's results
 * over them, less the transient fields. An entry whose mutant the plan no longer has is gone; one whose mutant the
 * run has not reached yet stays as it was (an interrupted run keeps the results it did not get to, the test that
 * killed each included, which `tiersFor` runs first next time); entries of files the run did not look at stay.
 */
export function mergeResults(results, stored, planned) {
  const byId = new Map(stored);
  for (const r of results) {
    const { start, end, text, at, testHashes, stale, ...kept } = r;
    byId.set(r.id, kept);
  }
  const plannedIds = new Set(planned.map((m) => m.id));
  const files = new Set(planned.map((m) => m.file));
  return [...byId.values()]
    .filter((entry) => plannedIds.has(entry.id) || !files.has(entry.file))
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.id.localeCompare(b.id));
}

function save(results, stored, planned) {
  writeFileSync(RESULTS, `${JSON.stringify(mergeResults(results, stored, planned), null, 1)}\n`);
}

function report(results, minutes) {
  const line = (label, list) => {
    const s = score(list);
    const survived = list.filter((r) => r.status === 'Survived').length;
    const noCoverage = list.filter((r) => r.status === 'NoCoverage').length;
    console.log(
      `mutant kinds: ${label.padEnd(40)} ${s.score.toFixed(1).padStart(5)} % of ${String(s.valid).padStart(4)} (survived ${survived}, no coverage ${noCoverage})`,
    );
  };
  for (const file of [...new Set(results.map((r) => r.file))].sort())
    line(
      file,
      results.filter((r) => r.file === file),
    );
  for (const kind of Object.keys(KINDS))
    line(
      kind,
      results.filter((r) => r.kind === kind),
    );
  for (const folder of TARGETS)
    line(
      folder,
      results.filter((r) => folderOf(r.file) === folder),
    );
  const all = score(results);
  console.log(
    `mutant kinds score ${all.score.toFixed(2)} %: ${all.detected} of ${all.valid} detected in ${new Set(results.map((r) => r.file)).size} file(s); ${minutes} min`,
  );
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await main();
