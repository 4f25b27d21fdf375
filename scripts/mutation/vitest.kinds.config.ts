import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

/** The unit tests as mutant-kinds.mjs runs them against its mutants: long timeouts on a busy machine. */
export default mergeConfig(
  base,
  defineConfig({
    // The repository's root, not this folder: the tests' paths, and the names Stryker's results keep them under.
    root: fileURLToPath(new URL('../..', import.meta.url)),
    test: { testTimeout: 120_000, hookTimeout: 120_000 },
  }),
);
