import { defineConfig } from 'vitest/config';
import { pageChunks } from './build/pageChunks.ts';

export default defineConfig({
  plugins: [pageChunks()],
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    restoreMocks: true,
    // Hooks open embedded databases and build servers: a PGlite open took over the 10 s default on a busy
    // machine (tests/api/database/migrations.test.ts's beforeAll, at a load of 13).
    hookTimeout: 60_000,
  },
});
