import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { pageChunks } from '../../build/pageChunks.ts';

/**
 * The unit tests for Stryker's run over the adapters (`stryker.adapters.config.mjs`): src/platform, the page
 * registry, src/ui/format.ts and the API. The same set and DOM as the root's `vitest.config.ts` (the page registry needs
 * the `virtual:page-chunks` plugin), without the tests that only reach a machine or core/ (tests/machines/, tests/core/:
 * minutes of dry run that cover none of these files) and the static checks over the
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
      // The machines' and the core's tests (path tests, diagrams, their edges) and the static checks over the tree.
      'tests/machines/**',
      'tests/core/**',
      'tests/house/**',
      'tests/docs/**',
      'tests/build/staticStyles*.test.ts',
      // Real processes (the server, the report commands) run the unmutated source in a child process: no mutant
      // is active there, and each run of them takes seconds.
      'tests/api/processes.test.ts',
      'tests/api/scaleout.test.ts',
      'tests/scripts/reports/reports.cli.test.ts',
      // The build's artifact installed and run in a folder of its own (it needs a build), and the prerender's
      // data sources (embedded databases and API servers): no adapter code runs in either.
      'tests/server/output*.test.ts',
      'tests/build/prerenderData*.test.ts',
    ],
    environment: 'happy-dom',
    restoreMocks: true,
    // On a busy machine a slow test must not fail by its clock: that would count a mutant as killed.
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
