import { defineConfig, mergeConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** The unit tests as scripts/mutant-kinds.mjs runs them against its mutants: long timeouts on a busy machine. */
export default mergeConfig(base, defineConfig({ test: { testTimeout: 120_000, hookTimeout: 120_000 } }));
