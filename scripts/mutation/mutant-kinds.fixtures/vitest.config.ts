import { defineConfig } from 'vitest/config';

// Only the fixtures' own test, in Node: scripts/mutant-kinds.test.mjs runs it against mutants of the fixtures.
export default defineConfig({
  test: { include: ['fixtures.test.ts'], environment: 'node', testTimeout: 60_000 },
});
