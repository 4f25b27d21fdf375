// Types of what TypeScript files (the Vitest configs) import from runs.mjs.
export const OUT_OF_PROCESS_TESTS: readonly string[];
