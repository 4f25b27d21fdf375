import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The unit tests for Stryker's run over machines/ (`stryker.machines.config.mjs`): every test but those of the server, the API client,
 * start-up, the reload guard, icons and images, which never import a machine, so each mutant's run stays short.
 */
export default defineConfig({
  // The repository's root, not this folder: the tests' paths, and the names Stryker's results keep them under.
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    exclude: [
      ...configDefaults.exclude,
      'tests/server.*.test.ts',
      'tests/api/**/*.test.ts',
      'tests/api*.test.ts',
      'tests/icon*.test.ts',
      'tests/images.test.ts',
      'tests/dependencyRules.test.ts',
      'tests/importCycles.test.ts',
      'tests/boot.test.ts',
      'tests/reloadGuard.test.ts',
      // These need the `virtual:page-chunks` plugin (Vitest 5 fails the whole run on a file that cannot load),
      // and test the page registry, prefetch and the build, which the adapters' run mutates.
      'tests/registry.test.ts',
      'tests/prefetch.test.ts',
      'tests/pageChunks.test.ts',
      // Build steps that never import a machine: the artifact, link-preview tags, the prerender's data sources.
      'tests/outputArtifact.test.ts',
      'tests/pageMeta.test.ts',
      'tests/prerenderData.test.ts',
    ],
    // The machines are pure: their tests need no DOM, and a DOM per test file costs seconds per mutant.
    // A test file that does need one says so with a `@vitest-environment` comment.
    environment: 'node',
    restoreMocks: true,
    // On a busy machine a slow test must not fail by its clock: that would count a mutant as killed.
    testTimeout: 120_000,
  },
});
