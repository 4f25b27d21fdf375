// `node --test scripts/mutation/mutant-kinds.test.mjs` (run by `npm run test:mutation`): each hand-written mutant kind
// finds the mutant it is for, and that mutant, run against a test that pins the behaviour, is caught; the same
// test passes on the original source, so the kill is the mutant's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  apply,
  atSites,
  createRunner,
  importingTests,
  KINDS,
  mergeResults,
  mutantsOf,
  nearTests,
  stillHolds,
  testTiers,
  tiersFor,
  triage,
} from './mutant-kinds.mjs';
import { OUT_OF_PROCESS_TESTS } from './runs.mjs';

const root = fileURLToPath(new URL('./mutant-kinds.fixtures/', import.meta.url));
const source = (file) => readFileSync(`${root}${file}`, 'utf8');
/** The fixtures' test files for each fixture: its own where it has one. */
const testsOf = (file) =>
  ['timedFetch.ts', 'sessions.ts'].includes(file)
    ? [file.replace(/\.ts$/, '.test.ts')]
    : ['fixtures.test.ts'];

describe('mutant kinds: what each one changes', () => {
  it('MathClamp: a Math.min or Math.max becomes either of its arguments', () => {
    const mutants = mutantsOf('const wait = Math.min(base * 2, cap) + Math.max(0, n);', ['MathClamp']);
    assert.deepEqual(
      mutants.map((m) => [m.original, m.replacement]),
      [
        ['Math.min(base * 2, cap)', 'base * 2'],
        ['Math.min(base * 2, cap)', 'cap'],
        ['Math.max(0, n)', '0'],
        ['Math.max(0, n)', 'n'],
      ],
    );
    assert.equal(
      apply('x = Math.min(a + 1, b) * 2;', mutantsOf('x = Math.min(a + 1, b) * 2;')[0]),
      'x = (a + 1) * 2;',
    );
    assert.deepEqual(mutantsOf('Math.min(...list); Math.round(a, b); other.min(a, b);', ['MathClamp']), []);
  });

  it('DropAwait: an awaited expression is used without waiting', () => {
    const code = 'async function f() { const r = await fetch(url); return r; }';
    const [mutant] = mutantsOf(code, ['DropAwait']);
    assert.equal(apply(code, mutant), 'async function f() { const r = (fetch(url)); return r; }');
  });

  it('DropAction: one entry of an actions, entry or exit list goes, with its comma', () => {
    const code = "({ entry: ['a', 'b', 'c'], exit: ['x'], actions: 'single', other: ['k'] })";
    const mutants = mutantsOf(code, ['DropAction']);
    assert.deepEqual(
      mutants.map((m) => apply(code, m)),
      [
        "({ entry: ['b', 'c'], exit: ['x'], actions: 'single', other: ['k'] })",
        "({ entry: ['a', 'c'], exit: ['x'], actions: 'single', other: ['k'] })",
        "({ entry: ['a', 'b'], exit: ['x'], actions: 'single', other: ['k'] })",
        "({ entry: ['a', 'b', 'c'], exit: [], actions: 'single', other: ['k'] })",
      ],
    );
  });

  it('SwapGuards: a guarded transition trades places with the one after it', () => {
    const code = "on: [{ guard: 'a', target: 'x' }, { guard: 'b', target: 'y' }, { target: 'z' }]";
    const mutants = mutantsOf(code, ['SwapGuards']);
    assert.deepEqual(
      mutants.map((m) => [m.original, m.replacement, apply(code, m)]),
      [
        [
          "guard: 'a'; guard: 'b'",
          "guard: 'b'; guard: 'a'",
          "on: [{ guard: 'b', target: 'y' }, { guard: 'a', target: 'x' }, { target: 'z' }]",
        ],
        [
          "guard: 'b'; unguarded, target: 'z'",
          "unguarded, target: 'z'; guard: 'b'",
          "on: [{ guard: 'a', target: 'x' }, { target: 'z' }, { guard: 'b', target: 'y' }]",
        ],
      ],
    );
    // Unguarded lists (plain data) are no transition lists.
    assert.deepEqual(mutantsOf("[{ target: 'a' }, { target: 'b' }]", ['SwapGuards']), []);
  });

  it('CleanupFirst: a finally body runs before each awaited statement of its try, and no longer after', () => {
    const code =
      'async function f() { try { const r = await get(url); return await r.json(); } finally { done(); clearTimeout(t); } }';
    const mutants = mutantsOf(code, ['CleanupFirst']);
    assert.deepEqual(
      mutants.map((m) => [m.original, m.replacement, apply(code, m)]),
      [
        [
          'await get(…) … finally { done(); clearTimeout(t); }',
          'done(); clearTimeout(t); await get(…) … finally {}',
          'async function f() { try { done(); clearTimeout(t); const r = await get(url); return await r.json(); } finally {} }',
        ],
        [
          'await r.json() … finally { done(); clearTimeout(t); }',
          'done(); clearTimeout(t); await r.json() … finally {}',
          'async function f() { try { const r = await get(url); done(); clearTimeout(t); return await r.json(); } finally {} }',
        ],
      ],
    );
    // Awaits inside a function the try block defines are not its own.
    assert.deepEqual(
      mutantsOf('try { later(async () => await x); } finally { done(); }', ['CleanupFirst']),
      [],
    );
  });

  it('CleanupFirst: a clean-up call moves before the awaited statement it follows', () => {
    const code = 'async function close() { await db.destroy(); log(); await release(); timer?.dispose(); }';
    const mutants = mutantsOf(code, ['CleanupFirst']);
    assert.deepEqual(
      mutants.map((m) => [m.original, m.replacement, apply(code, m)]),
      [
        [
          'await db.destroy(); await release();',
          'await release(); await db.destroy();',
          'async function close() { await release(); await db.destroy(); log(); timer?.dispose(); }',
        ],
        [
          'await release(); timer?.dispose();',
          'timer?.dispose(); await release();',
          'async function close() { await db.destroy(); log(); timer?.dispose(); await release(); }',
        ],
      ],
    );
    // Not before the statement that makes what it cleans up, nor with no await before it, nor other calls.
    assert.deepEqual(
      mutantsOf('async function f() { const c = await pool.connect(); c.release(); }', ['CleanupFirst']),
      [],
    );
    assert.deepEqual(mutantsOf('function f() { start(); clearTimeout(t); }', ['CleanupFirst']), []);
    assert.deepEqual(mutantsOf('async function f() { await a(); b.send(); }', ['CleanupFirst']), []);
  });

  it('DropWhere: one where of a query chain goes, at its own line', () => {
    const code =
      "db.selectFrom('s')\n  .where('id', '=', id)\n  .where('lastSeenAt', '>', cutoff)\n  .execute();";
    const mutants = mutantsOf(code, ['DropWhere']);
    assert.deepEqual(
      mutants.map((m) => [m.line, m.original, m.replacement, apply(code, m)]),
      [
        [
          2,
          ".where('id', '=', id)",
          '',
          "(db.selectFrom('s'))\n  .where('lastSeenAt', '>', cutoff)\n  .execute();",
        ],
        [
          3,
          ".where('lastSeenAt', '>', cutoff)",
          '',
          "(db.selectFrom('s')\n  .where('id', '=', id))\n  .execute();",
        ],
      ],
    );
    assert.deepEqual(mutantsOf("query = query.whereRef('a', '=', 'b');", ['DropWhere']).length, 1);
    assert.deepEqual(mutantsOf('list.filter(keep); where(x); a[where](x);', ['DropWhere']), []);
  });

  it('every kind is tested here', () => {
    assert.deepEqual(Object.keys(KINDS).sort(), [
      'CleanupFirst',
      'DropAction',
      'DropAwait',
      'DropWhere',
      'MathClamp',
      'SwapGuards',
    ]);
  });
});

describe('mutant kinds: what a run does with each mutant', () => {
  const mutant = (file, id, tests = ['tests/x.test.ts']) => ({ file, id, stamp: 'now', line: 1, tests });
  const stored = new Map([
    ['a1', { id: 'a1', file: 'a.ts', stamp: 'now', status: 'Killed' }],
    ['a2', { id: 'a2', file: 'a.ts', stamp: 'then', status: 'Survived' }],
  ]);
  const planned = [mutant('a.ts', 'a1'), mutant('a.ts', 'a2'), mutant('a.ts', 'a3'), mutant('b.ts', 'b1')];

  it('runs only the mutants on the lines --at names, when it names any', () => {
    const lines = [
      { file: 'a.ts', line: 3 },
      { file: 'a.ts', line: 30 },
      { file: 'b.ts', line: 3 },
    ];
    assert.deepEqual(atSites(lines, 'a.ts:3,b.ts:4'), [{ file: 'a.ts', line: 3 }]);
    assert.deepEqual(atSites(lines, undefined), lines);
  });

  it('reuses a result whose file and tests are unchanged, and runs the rest', () => {
    const { results, toRun, missing } = triage(planned, stored);
    assert.deepEqual(
      results.map((r) => [r.id, r.status]),
      [['a1', 'Killed']],
    );
    assert.deepEqual(
      toRun.map((m) => m.id),
      ['a2', 'a3', 'b1'],
    );
    assert.equal(missing.size, 0);
  });

  it('in CI, names a file without any stored result instead of running it from scratch', () => {
    const { results, toRun, missing } = triage(planned, stored, { ci: true });
    assert.deepEqual([...missing], ['b.ts']);
    // A changed mutant's committed result counts, marked stale; a new one has none to count.
    assert.deepEqual(
      results.map((r) => [r.id, r.status, r.stale ?? false]),
      [
        ['a1', 'Killed', false],
        ['a2', 'Survived', true],
      ],
    );
    // A file with results runs its changed and new mutants, as incremental runs do.
    assert.deepEqual(
      toRun.map((m) => m.id),
      ['a2', 'a3'],
    );
  });

  it('keeps a kill while the file and the test that killed it are unchanged, whatever other tests do', () => {
    const now = {
      stamp: 'new',
      sourceHash: 's1',
      testHashes: { 'tests/a.test.ts': 'a1', 'tests/b.test.ts': 'b2' },
    };
    const killed = {
      stamp: 'old',
      status: 'Killed',
      sourceHash: 's1',
      killedBy: 'tests/a.test.ts',
      killerHash: 'a1',
    };
    assert.equal(stillHolds(killed, now), true);
    assert.equal(stillHolds({ ...killed, killerHash: 'a0' }, now), false);
    assert.equal(stillHolds({ ...killed, sourceHash: 's0' }, now), false);
    assert.equal(stillHolds({ ...killed, killedBy: 'tests/gone.test.ts' }, now), false);
    // A survivor or a timeout may meet another end in any test that changed: only the stamp keeps it.
    assert.equal(stillHolds({ ...killed, status: 'Survived' }, now), false);
    assert.equal(stillHolds({ ...killed, status: 'Timeout' }, now), false);
    assert.equal(stillHolds({ ...killed, status: 'Survived', stamp: 'new' }, now), true);
    // A result stored before kills were keyed: the stamp only.
    assert.equal(stillHolds({ stamp: 'old', status: 'Killed', killedBy: 'tests/a.test.ts' }, now), false);
  });

  it('records a mutant no test reaches as not covered, without running it', () => {
    const { results, toRun } = triage([mutant('c.ts', 'c1', [])], new Map());
    assert.deepEqual(
      results.map((r) => [r.id, r.status]),
      [['c1', 'NoCoverage']],
    );
    assert.deepEqual(toRun, []);
  });
});

describe('mutant kinds: what the results file keeps', () => {
  const entry = (id, file, fields = {}) => ({ id, file, line: 1, status: 'Killed', ...fields });
  const stored = new Map(
    [
      entry('a1', 'a.ts', { killedBy: 'tests/a.test.ts' }),
      entry('a2', 'a.ts', { killedBy: 'tests/old.test.ts' }),
      entry('a-gone', 'a.ts'),
      entry('b1', 'b.ts'),
    ].map((e) => [e.id, e]),
  );
  const planned = [entry('a1', 'a.ts'), entry('a2', 'a.ts'), entry('a3', 'a.ts')];

  it('puts this run’s results over the stored ones, without their transient fields', () => {
    const merged = mergeResults(
      [{ ...entry('a1', 'a.ts'), status: 'Survived', text: 'x', testHashes: {}, stale: true }],
      stored,
      planned,
    );
    assert.deepEqual(
      merged.find((e) => e.id === 'a1'),
      { id: 'a1', file: 'a.ts', line: 1, status: 'Survived' },
    );
  });

  it('keeps what the run has not reached yet, drops what the plan no longer has, leaves other files alone', () => {
    const merged = mergeResults([entry('a3', 'a.ts')], stored, planned);
    assert.deepEqual(
      merged.map((e) => [e.id, e.killedBy]),
      [
        ['a1', 'tests/a.test.ts'],
        ['a2', 'tests/old.test.ts'],
        ['a3', undefined],
        ['b1', undefined],
      ],
    );
  });
});

describe('mutant kinds: which tests run first', () => {
  const tests = [
    'tests/core/routes.test.ts',
    'tests/machines/app/app.machine.test.ts',
    'tests/machines/colorMode/colorMode.machine.test.ts',
    'tests/platform/colorMode.test.ts',
    'tests/api/database/open.test.ts',
    'tests/api/session.test.ts',
  ];
  it('never include a test whose code runs in another process, where no mutant is active', () => {
    // The repository's own tests: the process tests import the harness that opens the database, as others do.
    const repository = fileURLToPath(new URL('../..', import.meta.url));
    const reaching = importingTests('api/database/open.ts', repository);
    assert.ok(reaching.includes('tests/api/database/open.test.ts'));
    assert.ok(
      readFileSync(`${repository}tests/api/processes.test.ts`, 'utf8').includes('../support/apiHarness'),
    );
    for (const test of OUT_OF_PROCESS_TESTS) assert.ok(!reaching.includes(test), test);
  });

  it('are those in the source file’s mirror folder under tests/', () => {
    assert.deepEqual(nearTests('machines/colorMode/colorMode.machine.ts', tests), [
      'tests/machines/colorMode/colorMode.machine.test.ts',
    ]);
    assert.deepEqual(nearTests('src/platform/colorMode.ts', tests), ['tests/platform/colorMode.test.ts']);
    assert.deepEqual(nearTests('api/sessions.ts', tests), [
      'tests/api/database/open.test.ts',
      'tests/api/session.test.ts',
    ]);
    assert.deepEqual(nearTests('api/database/open.ts', tests), ['tests/api/database/open.test.ts']);
    assert.deepEqual(nearTests('src/pages/registry.ts', tests), []);
  });

  it('in tiers: the tests named for the file, its mirror folder’s own, their subfolders’, then every other', () => {
    const api = [
      'tests/api/accounts/hardening.test.ts',
      'tests/api/database/open.test.ts',
      'tests/api/session.test.ts',
      'tests/server/edge.test.ts',
    ];
    assert.deepEqual(testTiers('api/accounts.ts', api), [
      ['tests/api/accounts/hardening.test.ts'],
      ['tests/api/session.test.ts'],
      ['tests/api/database/open.test.ts'],
      ['tests/server/edge.test.ts'],
    ]);
    assert.deepEqual(testTiers('api/routes/session.ts', api), [
      ['tests/api/session.test.ts'],
      ['tests/api/accounts/hardening.test.ts', 'tests/api/database/open.test.ts'],
      ['tests/server/edge.test.ts'],
    ]);
    // No test named for it, none in a mirror folder: one tier of them all.
    assert.deepEqual(testTiers('src/pages/registry.ts', tests), [tests]);
  });

  it('with the test that killed the mutant last time alone before them, if it still reaches the file', () => {
    const api = [
      'tests/api/accounts/hardening.test.ts',
      'tests/api/database/open.test.ts',
      'tests/api/session.test.ts',
      'tests/server/edge.test.ts',
    ];
    assert.deepEqual(tiersFor('api/routes/session.ts', api, 'tests/api/database/open.test.ts'), [
      ['tests/api/database/open.test.ts'],
      ['tests/api/session.test.ts'],
      ['tests/api/accounts/hardening.test.ts'],
      ['tests/server/edge.test.ts'],
    ]);
    // A tier it leaves empty goes.
    assert.deepEqual(tiersFor('api/routes/session.ts', api, 'tests/api/session.test.ts'), [
      ['tests/api/session.test.ts'],
      ['tests/api/accounts/hardening.test.ts', 'tests/api/database/open.test.ts'],
      ['tests/server/edge.test.ts'],
    ]);
    // No killer, one that no longer reaches the file, or "unhandled error": the tiers as they were.
    for (const killer of [undefined, 'tests/api/gone.test.ts', 'unhandled error'])
      assert.deepEqual(
        tiersFor('api/routes/session.ts', api, killer),
        testTiers('api/routes/session.ts', api),
      );
  });
});

describe('mutant kinds: a test catches each kind', { timeout: 600_000 }, () => {
  let runner;
  before(async () => {
    runner = await createRunner({ root, config: `${root}vitest.config.ts` });
  });
  after(async () => {
    await runner?.close();
  });

  it('runs the nearest tests first, and the rest only for a mutant they let live', async () => {
    const original = runner.runFiles;
    const calls = [];
    let first = 'Killed';
    runner.runFiles = async (_file, mutant, tests) => {
      // The tests without a mutant, timed once per set for the mutants' timeout: they pass.
      if (mutant === null) return { status: 'Survived' };
      calls.push(tests);
      return { status: calls.length === 1 ? first : 'Survived' };
    };
    try {
      const tests = ['tests/machines/x/x.machine.test.ts', 'tests/platform/x.test.ts', 'tests/ui/x.test.ts'];
      assert.deepEqual(await runner.run('machines/x/x.machine.ts', {}, tests), { status: 'Killed' });
      assert.deepEqual(calls, [['tests/machines/x/x.machine.test.ts']]);
      calls.length = 0;
      first = 'Survived';
      assert.deepEqual(await runner.run('machines/x/x.machine.ts', {}, tests), { status: 'Survived' });
      assert.deepEqual(calls, [
        ['tests/machines/x/x.machine.test.ts'],
        ['tests/platform/x.test.ts', 'tests/ui/x.test.ts'],
      ]);
      calls.length = 0;
      first = 'Killed';
      assert.deepEqual(await runner.run('core/x.ts', {}, tests), { status: 'Killed' });
      assert.deepEqual(calls, [tests]);
      // Last time's killer first, alone.
      calls.length = 0;
      assert.deepEqual(await runner.run('core/x.ts', {}, tests, 'tests/ui/x.test.ts'), { status: 'Killed' });
      assert.deepEqual(calls, [['tests/ui/x.test.ts']]);
    } finally {
      runner.runFiles = original;
    }
  });

  it('gives a mutant twice its tests’ time without one (plus 15 s), and stops when they fail without one', async () => {
    const original = runner.runFiles;
    const budgets = [];
    let baseline = 'Survived';
    runner.runFiles = async (_file, mutant, tests, budget) => {
      if (mutant === null) return { status: baseline };
      budgets.push([tests, budget]);
      return { status: 'Killed' };
    };
    try {
      await runner.run('core/y.ts', {}, ['tests/core/y.test.ts']);
      await runner.run('core/y.ts', {}, ['tests/core/y.test.ts']);
      // Measured once for the set (a fake answers at once): 15 s and a little.
      assert.equal(budgets.length, 2);
      for (const [, budget] of budgets) assert.ok(budget >= 15_000 && budget < 16_000, `budget ${budget}`);
      assert.equal(budgets[0][1], budgets[1][1]);
      baseline = 'Killed';
      await assert.rejects(runner.run('core/z.ts', {}, ['tests/core/z.test.ts']), /fail without a mutant/);
    } finally {
      runner.runFiles = original;
    }
  });

  it('the fixtures pass as written', async () => {
    for (const file of ['backoff.ts', 'save.ts', 'door.ts', 'timedFetch.ts', 'sessions.ts'])
      assert.deepEqual(await runner.run(file, null, testsOf(file)), { status: 'Survived' });
  });

  const caught = [
    ['MathClamp', 'backoff.ts', (m) => m.replacement === '1_000 * 2 ** failures'],
    ['DropAwait', 'save.ts', () => true],
    ['DropAction', 'door.ts', (m) => m.original === "'raiseAlarm'"],
    ['SwapGuards', 'door.ts', () => true],
    // The deadline let go once the answer's headers are in: a body that stalls then waits forever.
    ['CleanupFirst', 'timedFetch.ts', (m) => m.original.startsWith('await response.json()')],
    // An idle session's id finds its user again.
    ['DropWhere', 'sessions.ts', (m) => m.original === ".where('lastSeenAt', '>', idleCutoff)"],
  ];
  for (const [kind, file, pick] of caught) {
    it(`${kind}: its mutant of ${file} fails the fixtures' test`, async () => {
      const mutant = mutantsOf(source(file), [kind]).find(pick);
      assert.ok(mutant, `no ${kind} mutant in ${file}`);
      const result = await runner.run(file, mutant, testsOf(file));
      assert.deepEqual(result, { status: 'Killed', killedBy: testsOf(file)[0] });
    });
  }

  it("counts only the run's own tests: a kill is not carried into the next run", async () => {
    const killing = mutantsOf(source('backoff.ts'), ['MathClamp'])[0];
    assert.equal((await runner.run('backoff.ts', killing, testsOf('backoff.ts'))).status, 'Killed');
    // Another file's tests, which pass: fixtures.test.ts failed just now, but is no part of this run.
    assert.deepEqual(await runner.run('timedFetch.ts', null, testsOf('timedFetch.ts')), {
      status: 'Survived',
    });
  });
});
