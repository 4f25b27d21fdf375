/**
 * Builds the production server (server/main.ts) and the build's last step (build/finalizeBuild.ts) into
 * dist-server/ as plain ES modules, so `npm start` runs on Node 24 without a TypeScript loader. Packages stay
 * external (installed by npm ci); our own modules (core/, machines/, server/, api/, build/finalizeBuild.ts) are
 * bundled. The seed data is bundled as JSON; the source images are read from api/fixtures/images in a checkout.
 * The build's last step copies main.mjs and its chunks into the artifact as .output/server/index.mjs, with the
 * images beside it (build/outputArtifact.ts, server/layout.ts).
 */
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  build: {
    ssr: true,
    target: 'node24',
    outDir: 'dist-server',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    rollupOptions: {
      input: { main: 'server/main.ts', finalize: 'build/finalizeBuild.ts' },
      output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
    },
  },
});
