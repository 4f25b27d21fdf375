// Stryker's one configuration (`npm run test:mutation -- <files or folders>`, scripts/mutation/mutation.mjs, which
// passes the files to mutate). Paths are relative to the repository's root, where Stryker runs.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  // Vitest's related mode: only the test files that import a mutated file (directly or through other modules).
  vitest: { configFile: 'scripts/mutation/vitest.config.ts', related: true },
  // Each mutant runs only the tests that cover it.
  coverageAnalysis: 'perTest',
  // A re-run tests only the mutants whose code or covering tests changed; the file is git-ignored.
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['html', 'json', 'progress', 'clear-text'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, allowEmojis: false, reportTests: false, reportMutants: false },
  // A tool, not a gate: the score is printed, and no score fails the run.
  thresholds: { high: 90, low: 80, break: null },
  // TypeScript 7 (native tsc) has no JavaScript API. Stryker's TypeScript preprocessing calls it when the
  // tsconfig file exists; pointing at one that does not exist skips it (Vitest strips types itself).
  tsconfigFile: 'stryker.tsconfig.does-not-exist.json',
  checkers: [],
  // One test process per core.
  concurrency: 2,
  // On a busy machine a slow run must not count as a timeout (a detected mutant).
  timeoutMS: 60_000,
  timeoutFactor: 3,
  dryRunTimeoutMinutes: 30,
  // Static mutants (code that runs while a module loads, such as a machine's definition) have no per-test
  // coverage, so each runs every related test file; `npm run test:mutation -- --static …` includes them.
  ignoreStatic: process.env.MUTATION_STATIC !== '1',
  tempDirName: '.stryker-tmp',
  ignorePatterns: ['/.stryker-tmp*', '/reports', '/test-results', '/playwright-report', '/dist', '/dist-*'],
  cleanTempDir: 'always',
};
