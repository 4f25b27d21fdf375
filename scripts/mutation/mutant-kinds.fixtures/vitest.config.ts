import { defineConfig } from 'vitest/config';

// Only the fixtures' own tests, in Node: scripts/mutation/mutant-kinds.test.mjs runs them against mutants of the
// fixtures, with long timeouts for a busy machine.
export default defineConfig({
  test: {
    include: ['*.test.ts'],
    environment: 'node',
    restoreMocks: true,
    testTimeout: 120_000,
  },
});
