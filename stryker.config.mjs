// Mutation testing of machines/ (`npm run test:mutation`); see the README's "Mutation testing" section.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts' },
  mutate: ['machines/**/*.ts'],
  // Each mutant runs only the tests that cover it.
  coverageAnalysis: 'perTest',
  // A re-run tests only mutants whose code or covering tests changed; the file is committed.
  incremental: true,
  incrementalFile: 'stryker-incremental.json',
  reporters: ['html', 'json', 'progress', 'clear-text'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
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
  tempDirName: '.stryker-tmp',
  // Other runs' sandboxes (a run over a few files beside the full one) come and go while this one copies the tree.
  ignorePatterns: ['/.stryker-tmp*', '/reports', '/test-results', '/playwright-report'],
  cleanTempDir: 'always',
};
