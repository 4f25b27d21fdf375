import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { apiPreload } from './build/apiPreload.ts';
import { buildManifest } from './build/buildManifest.ts';
import { colorModeBoot } from './build/colorModeBoot.ts';
import { compileHints } from './build/compileHints.ts';
import { assetEndpoints, demoApi } from './build/devEndpoints.ts';
import { bundledIcons } from './build/iconBundle.ts';
import { pageChunks } from './build/pageChunks.ts';
import { prerenderPages } from './build/prerenderPages.ts';
import { scriptPriority } from './build/scriptPriority.ts';
import { spaFallbackForMalformedPaths } from './build/spaFallback.ts';
import { startChunks } from './build/startChunks.ts';
import { staticStyles } from './build/staticStyles.ts';

const port = Number(process.env.PORT) || 4173;

export default defineConfig({
  plugins: [
    react(),
    colorModeBoot(),
    spaFallbackForMalformedPaths(),
    buildManifest(),
    prerenderPages(),
    pageChunks(),
    demoApi(),
    assetEndpoints(),
    bundledIcons(),
    apiPreload(),
    staticStyles(),
    startChunks(),
    scriptPriority(),
    compileHints(),
  ],
  server: { port: Number(process.env.PORT) || 5173 },
  preview: { port, strictPort: true, host: process.env.HOST || 'localhost' },
  build: {
    target: 'es2022',
    // Maps are written for debugging but not referenced from the code; the build's last step moves them out
    // of dist/ (build/finalizeBuild.ts), so they are never deployed or served.
    sourcemap: 'hidden',
    // Every browser that runs this build's modules natively but lacks modulepreload (Safari before 17) only
    // loses the early fetch of the chunks it imports; the polyfill cost every visitor about 0.3 kB gzip of
    // first load.
    modulePreload: { polyfill: false },
    // Read by scripts/bench/bench.mjs to follow the import graph of the initial load.
    manifest: true,
  },
});
