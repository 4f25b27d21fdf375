// Mutation testing of machines/ (`npm run test:mutation`, scripts/mutation/mutation.mjs); see docs/testing.md,
// "Mutation testing". Stryker runs from the repository's root, so every path here is relative to it; the other two
// runs (stryker.adapters.config.mjs, stryker.api.config.mjs) start from this one.
import { RUNS } from './runs.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'scripts/mutation/vitest.machines.config.ts' },
  mutate: ['machines/**/*.ts', 'core/**/*.ts'],
  // Each mutant runs only the tests that cover it.
  coverageAnalysis: 'perTest',
  // A re-run tests only mutants whose code or covering tests changed; the file is committed.
  incremental: true,
  incrementalFile: RUNS.machines.incremental,
  reporters: ['html', 'json', 'progress', 'clear-text'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: RUNS.machines.report },
  clearTextReporter: { allowColor: false, allowEmojis: false, reportTests: false, reportMutants: false },
  thresholds: { high: 90, low: 85, break: 85 },
  // TypeScript 7 (native tsc) has no JavaScript API. Stryker's TypeScript preprocessing calls it when the
  // tsconfig file exists; pointing at one that does not exist skips it (Vitest strips types itself).
  tsconfigFile: 'stryker.tsconfig.does-not-exist.json',
  checkers: [],
  concurrency: 2,
  // Two cores shared with other work: a run slowed by load must not count as a timeout (a detected mutant).
  timeoutMS: 60_000,
  timeoutFactor: 3,
  // The dry run (every machine test, with per-test coverage) took over Stryker's default 5 minutes at a load of 17.
  dryRunTimeoutMinutes: 30,
  // Static mutants (in code that runs when a module loads: the machine definitions) run every test each: after
  // the merges of 2026-11-27, 577 of the 1,145 mutants to re-test, at about 10 a minute here; the incremental run
  // and CI leave them out, and `npm run test:mutation -- --full` (MUTATION_STATIC=1) includes them, as for the
  // adapters and the API.
  ignoreStatic: process.env.MUTATION_STATIC !== '1',
  tempDirName: '.stryker-tmp',
  // Other runs' sandboxes (a run over a few files beside the full one) come and go while this one copies the tree.
  // The committed results and survivors' reasons (15 MB) are never read inside a sandbox.
  ignorePatterns: [
    '/.stryker-tmp*',
    '/reports',
    '/test-results',
    '/playwright-report',
    '/scripts/mutation/baseline',
    '/scripts/mutation/survivors',
  ],
  cleanTempDir: 'always',
};
