import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { buildManifest } from './server/buildManifest.ts';
import { colorModeBoot } from './server/colorModeBoot.ts';
import { bundledIcons } from './server/iconBundle.ts';
import { assetEndpoints, demoApi } from './server/plugin.ts';
import { spaFallbackForMalformedPaths } from './server/spaFallback.ts';

const port = Number(process.env.PORT) || 4173;

export default defineConfig({
  plugins: [
    react(),
    colorModeBoot(),
    spaFallbackForMalformedPaths(),
    buildManifest(),
    demoApi(),
    assetEndpoints(),
    bundledIcons(),
  ],
  server: { port: Number(process.env.PORT) || 5173 },
  preview: { port, strictPort: true, host: process.env.HOST || 'localhost' },
  build: {
    target: 'es2022',
    sourcemap: true,
    // Read by scripts/bench.mjs to follow the import graph of the initial load.
    manifest: true,
  },
});
