import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { OUT_OF_PROCESS_TESTS } from './runs.mjs';

/**
 * The unit tests for Stryker's run over the demo API (`stryker.api.config.mjs`): the API's own test files, in
 * Node, each test worker on one embedded database (`API_TEST_SHARED_DATABASE`, tests/support/apiHarness.ts),
 * which every test file gets back at the seed data. Stryker runs a mutant's tests in a new worker, so a mutant
 * pays for one database, loaded from a migrated dump, instead of one per file created from nothing (initdb in
 * WebAssembly: 5 to 12 s apiece here, which made a run of the API's 1,500 mutants take days).
 * Left out: the server's tests (tests/server/) and the dev server's (tests/build/devEndpoints.test.ts), which reach
 * the API only through the whole server and open a database in a folder of their own; and real processes
 * (tests/api/processes.test.ts, tests/api/scaleout.test.ts, tests/scripts/reports/reports.cli.test.ts),
 * where no mutant is active.
 */
export default defineConfig({
  // The repository's root, not this folder: the tests' paths, and the names Stryker's results keep them under.
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/api/**/*.test.ts'],
    // Real processes (api/main.ts run by tsx): no mutant is active in them. The scale-out test needs PostgreSQL.
    exclude: [...OUT_OF_PROCESS_TESTS, 'tests/api/scaleout.test.ts'],
    environment: 'node',
    restoreMocks: true,
    // One worker thread runs all of a mutant's test files, sharing the database.
    isolate: false,
    env: { API_TEST_SHARED_DATABASE: '1' },
    // On a busy machine a slow test must not fail by its clock: that would count a mutant as killed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
