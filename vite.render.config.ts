/**
 * Builds the server's render bundle (build/renderEntry.ts and the app it renders) into `dist/.render/render.mjs`,
 * after the client build, with the client's build id, so the payloads it renders are the client's. Everything is
 * bundled (React, XState and the app included): the production artifact installs the server's runtime
 * dependencies only. A dot folder of the build: never served, and copied into the artifact with the rest.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { bundledIcons } from './build/iconBundle.ts';
import { pageChunks } from './build/pageChunks.ts';

const distDir = path.resolve(process.env.DIST_DIR ?? 'dist');

function clientBuildId(): string {
  try {
    return JSON.parse(readFileSync(path.join(distDir, '_app/builds/latest.json'), 'utf8')).id;
  } catch {
    throw new Error(`No client build in ${distDir}: run \`vite build\` before the render bundle.`);
  }
}

/** The client build's manifest (which chunks and styles each page needs), bundled in: the artifact leaves `.vite/` out. */
function clientManifest(): string {
  return readFileSync(path.join(distDir, '.vite/manifest.json'), 'utf8');
}

export default defineConfig({
  publicDir: false,
  logLevel: 'warn',
  plugins: [react(), bundledIcons(), pageChunks()],
  define: { __BUILD_ID__: JSON.stringify(clientBuildId()), __CLIENT_MANIFEST__: clientManifest() },
  ssr: { noExternal: true, target: 'node' },
  build: {
    ssr: true,
    target: 'node24',
    outDir: path.join(distDir, '.render'),
    emptyOutDir: true,
    minify: false,
    sourcemap: false,
    rollupOptions: {
      input: { render: 'build/renderEntry.ts' },
      output: {
        format: 'es',
        entryFileNames: '[name].mjs',
        chunkFileNames: '[name]-[hash].mjs',
        codeSplitting: false,
      },
    },
  },
});
