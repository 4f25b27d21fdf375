import { defineConfig } from 'vitest/config';

// Only the fixtures' own tests, in Node: scripts/mutation/mutant-kinds.test.mjs runs them against mutants of the
// fixtures. Long timeouts: an embedded database starts in seconds, in tens of them on a busy machine.
export default defineConfig({
  test: {
    include: ['*.test.ts'],
    environment: 'node',
    restoreMocks: true,
    testTimeout: 120_000,
  },
});
