/**
 * Builds the production server (server/main.ts) and the build's last step (server/finalizeBuild.ts) into
 * dist-server/ as plain ES modules, so `npm start` runs on Node 20 without a TypeScript loader. Packages stay
 * external (installed by npm ci); our own modules (machines/, src/config.ts, server/) are bundled.
 */
import { cpSync } from 'node:fs';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [
    {
      // Modules find their data beside themselves (`new URL('./fixtures/…', import.meta.url)`): the seed
      // database and the source images go along.
      name: 'campaign-web:server-fixtures',
      writeBundle: () => cpSync('server/fixtures', 'dist-server/fixtures', { recursive: true }),
    },
  ],
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    target: 'node20',
    outDir: 'dist-server',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: { main: 'server/main.ts', finalize: 'server/finalizeBuild.ts' },
      output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
});
