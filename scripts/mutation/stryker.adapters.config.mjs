// Mutation testing of the code that talks to the browser and the network (`npm run test:mutation` runs it after
// stryker.machines.config.mjs): the platform adapters, the page registry and the formatters. A run of its own because
// its tests need a DOM, which would slow every machine mutant. The demo API has its own (stryker.api.config.mjs).
import { RUNS } from './runs.mjs';
import base from './stryker.machines.config.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  ...base,
  vitest: { configFile: 'scripts/mutation/vitest.adapters.config.ts' },
  mutate: ['src/platform/**/*.ts', 'src/pages/registry.ts', 'src/ui/format.ts'],
  incrementalFile: RUNS.adapters.incremental,
  htmlReporter: { fileName: 'reports/mutation-adapters/index.html' },
  jsonReporter: { fileName: RUNS.adapters.report },
  tempDirName: '.stryker-tmp-adapters',
  dryRunTimeoutMinutes: 30,
  // Static mutants (code that runs while a module loads: the icon tables, the reporter's limits) have no
  // per-test coverage, so each runs every test file: minutes apiece on 2 cores. The incremental run (CI)
  // leaves them out; `npm run test:mutation -- --full` (MUTATION_STATIC=1) includes them.
  ignoreStatic: process.env.MUTATION_STATIC !== '1',
};
