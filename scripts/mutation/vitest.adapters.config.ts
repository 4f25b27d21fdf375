import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { pageChunks } from '../../build/pageChunks.ts';

/**
 * The unit tests for Stryker's run over the adapters (`stryker.adapters.config.mjs`): src/platform, the page
 * registry, src/ui/format.ts and the API. The same set and DOM as the root's `vitest.config.ts` (the page registry needs
 * the `virtual:page-chunks` plugin), without the tests that only reach a machine (the path tests, the diagrams,
 * the machine-mutant tests: minutes of dry run that cover none of these files) and the static checks over the
 * source tree.
 */
export default defineConfig({
  // The repository's root, not this folder: the tests' paths, and the names Stryker's results keep them under.
  root: fileURLToPath(new URL('../..', import.meta.url)),
  plugins: [pageChunks()],
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: [
      ...configDefaults.exclude,
      'tests/app.machine.test.ts',
      'tests/session.machine.test.ts',
      'tests/colorMode.machine.test.ts',
      'tests/toast.machine.test.ts',
      'tests/diagram.test.ts',
      'tests/machineModules.test.ts',
      'tests/mutants.*.test.ts',
      'tests/dependencyRules.test.ts',
      'tests/importCycles.test.ts',
      'tests/toaster.machine.test.ts',
      'tests/staticStyles.test.ts',
      // Real processes (the server, the report commands) run the unmutated source in a child process: no mutant
      // is active there, and each run of them takes seconds.
      'tests/server.processes.test.ts',
      'tests/reports.cli.test.ts',
      // The build's artifact installed and run in a folder of its own (it needs a build), and the prerender's
      // data sources (embedded databases and API servers): no adapter code runs in either.
      'tests/server/output.test.ts',
      'tests/prerenderData.test.ts',
    ],
    environment: 'happy-dom',
    restoreMocks: true,
    // On a busy machine a slow test must not fail by its clock: that would count a mutant as killed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
