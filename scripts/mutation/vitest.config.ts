import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

/**
 * The unit tests as Stryker runs them (stryker.config.mjs): the root's set and DOM, with clocks patient enough for
 * a busy machine (a test failing by its clock would count a mutant as killed), without the tests that run the code
 * in another process (a server or CLI started from the files on disk, or the built artifact), where no mutant is
 * active.
 */
export default mergeConfig(
  base,
  defineConfig({
    // The repository's root, not this folder: the tests' paths, and the names Stryker's results keep them under.
    root: fileURLToPath(new URL('../..', import.meta.url)),
    test: {
      exclude: [
        ...configDefaults.exclude,
        'tests/api/processes.test.ts',
        'tests/api/scaleout.test.ts',
        'tests/server/drain.test.ts',
        'tests/server/output*.test.ts',
        'tests/scripts/reports/reports.cli.test.ts',
      ],
      testTimeout: 120_000,
      hookTimeout: 120_000,
    },
  }),
);
