import { defineConfig } from 'vitest/config';
import { pageChunks } from './build/pageChunks.ts';

export default defineConfig({
  plugins: [pageChunks()],
  test: {
    include: ['tests/**/*.test.{ts,tsx}'],
    environment: 'happy-dom',
    restoreMocks: true,
  },
});
