import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { pageChunks } from './build/pageChunks.ts';
import { apiPreload } from './server/apiPreload.ts';
import { buildManifest } from './server/buildManifest.ts';
import { colorModeBoot } from './server/colorModeBoot.ts';
import { bundledIcons } from './server/iconBundle.ts';
import { assetEndpoints, demoApi } from './server/plugin.ts';
import { prerenderPages } from './server/prerender.ts';
import { scriptPriority } from './server/scriptPriority.ts';
import { spaFallbackForMalformedPaths } from './server/spaFallback.ts';
import { staticStyles } from './server/staticStyles.ts';
import { config } from './src/config.ts';
import { parseIconBody } from './src/platform/iconSvg.ts';

const port = Number(process.env.PORT) || 4173;

export default defineConfig({
  plugins: [
    react(),
    colorModeBoot({ storageKey: config.colorMode.storageKey }),
    spaFallbackForMalformedPaths(),
    buildManifest(),
    prerenderPages({
      entry: '/src/prerender.tsx',
      renderPlugins: [bundledIcons({ parseIconBody }), pageChunks()],
    }),
    pageChunks(),
    demoApi(),
    assetEndpoints(),
    bundledIcons({ parseIconBody }),
    apiPreload(),
    staticStyles(),
    scriptPriority(),
  ],
  server: { port: Number(process.env.PORT) || 5173 },
  preview: { port, strictPort: true, host: process.env.HOST || 'localhost' },
  build: {
    target: 'es2022',
    // Maps are written for debugging but not referenced from the code; the build's last step moves them out
    // of dist/ (server/finalizeBuild.ts), so they are never deployed or served.
    sourcemap: 'hidden',
    // Read by scripts/bench.mjs to follow the import graph of the initial load.
    manifest: true,
  },
});
