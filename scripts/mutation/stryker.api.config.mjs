// Mutation testing of the demo API (`npm run test:mutation` runs it after the adapters): a run of its own,
// because its tests need an embedded database, which would slow every other mutant; see
// vitest.api.config.ts for how its tests share one per worker.
import { RUNS } from './runs.mjs';
import base from './stryker.machines.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'scripts/mutation/vitest.api.config.ts' },
  mutate: ['api/**/*.ts'],
  incrementalFile: RUNS.api.incremental,
  htmlReporter: { fileName: 'reports/mutation-api/index.html' },
  jsonReporter: { fileName: RUNS.api.report },
  tempDirName: '.stryker-tmp-api',
  // The first run of every test, for per-test coverage, signs in hundreds of times (argon2): minutes here.
  dryRunTimeoutMinutes: 30,
  // Static mutants (code that runs while a module loads: the schemas, the limits, the migrations' list) have
  // no per-test coverage, so each runs every test file. The incremental run (CI) leaves them out;
  // `npm run test:mutation -- --full` (MUTATION_STATIC=1) includes them.
  ignoreStatic: process.env.MUTATION_STATIC !== '1',
};
