// Where mutation testing keeps its things: everything lives in this folder (scripts/mutation/), and every path
// here is relative to the repository's root, where `npm run test:mutation` runs Stryker and the kinds.
//   stryker.<run>.config.mjs, vitest.<run>.config.ts   a Stryker run and the unit tests it runs
//   baseline/stryker.<run>.json                        its committed results (Stryker's incremental file: CI reuses them)
//   baseline/kinds.json                                the committed results of the hand-written kinds (mutant-kinds.mjs)
//   survivors/<source path>.json                       why each mutant left alive may live (mutation-survivors.mjs)
// Reports of the last runs are written to reports/ (git-ignored).

export const HOME = 'scripts/mutation';
export const BASELINE_DIR = `${HOME}/baseline`;
export const REASONS_DIR = `${HOME}/survivors`;
export const KINDS_RESULTS = `${BASELINE_DIR}/kinds.json`;

/**
 * Test files whose every test runs the code in another process (a server or CLI started from the files on
 * disk, or the built artifact): no mutant is active there, so no mutation run gives them a mutant, and they are
 * among the slowest of the unit run.
 */
export const OUT_OF_PROCESS_TESTS = [
  'tests/api/processes.test.ts',
  'tests/server/drain.test.ts',
  'tests/server/output.test.ts',
];

/** Stryker's runs, in the order `npm run test:mutation` runs them. */
export const RUNS = {
  machines: {
    config: `${HOME}/stryker.machines.config.mjs`,
    incremental: `${BASELINE_DIR}/stryker.machines.json`,
    report: 'reports/mutation/mutation.json',
    roots: ['machines', 'core'],
  },
  adapters: {
    config: `${HOME}/stryker.adapters.config.mjs`,
    incremental: `${BASELINE_DIR}/stryker.adapters.json`,
    report: 'reports/mutation-adapters/mutation.json',
    roots: ['src/platform', 'src/pages/registry.ts', 'src/ui/format.ts'],
  },
  api: {
    config: `${HOME}/stryker.api.config.mjs`,
    incremental: `${BASELINE_DIR}/stryker.api.json`,
    report: 'reports/mutation-api/mutation.json',
    roots: ['api'],
  },
};
