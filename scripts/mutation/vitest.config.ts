import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { pageChunks } from '../../build/pageChunks.ts';

/** The tests of the machines and of core/: pure code, so no DOM (a file that needs one says so in a comment). */
const PURE = ['tests/machines/**/*.test.{ts,tsx}', 'tests/core/**/*.test.{ts,tsx}'];

/**
 * Tests that run the code in another process (a server or CLI started from the files on disk, or the built
 * artifact), where no mutant is active, or that need a PostgreSQL server.
 */
const OUT_OF_PROCESS = [
  'tests/api/processes.test.ts',
  'tests/api/scaleout.test.ts',
  'tests/server/drain.test.ts',
  'tests/server/output*.test.ts',
  'tests/scripts/reports/reports.cli.test.ts',
  // It imports every module inside its one test, so every mutant of code that runs while a module loads counts as
  // covered by it alone, and is tested by it alone: wanted only when static mutants run every related test.
  ...(process.env.MUTATION_STATIC === '1' ? [] : ['tests/machines/modules.test.ts']),
];

/** What the root's vitest.config.ts sets, with clocks patient enough for a busy machine (a test failing by its clock
 * would count a mutant as killed). */
const common = {
  restoreMocks: true,
  testTimeout: 120_000,
  hookTimeout: 120_000,
};

/**
 * The unit tests as Stryker runs them (stryker.config.mjs): the root's set without OUT_OF_PROCESS, in two projects.
 * Each mutant runs its tests again, and a DOM per test file costs seconds per mutant, so the machines' and core/'s
 * tests run in Node; the others in happy-dom, as in the root's config.
 */
export default defineConfig({
  // The repository's root, not this folder: the tests' paths, and the names Stryker's results keep them under.
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    projects: [
      {
        plugins: [pageChunks()],
        test: {
          ...common,
          name: 'pure',
          include: PURE,
          exclude: [...configDefaults.exclude, ...OUT_OF_PROCESS],
          environment: 'node',
        },
      },
      {
        plugins: [pageChunks()],
        test: {
          ...common,
          name: 'dom',
          include: ['tests/**/*.test.{ts,tsx}'],
          exclude: [...configDefaults.exclude, ...OUT_OF_PROCESS, ...PURE],
          environment: 'happy-dom',
        },
      },
    ],
  },
});
