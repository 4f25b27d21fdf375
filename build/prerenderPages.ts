/**
 * The build's part in rendering pages. The build renders nothing from data: the server renders every public
 * page on request, from the database, with the render bundle built from build/renderEntry.ts
 * (vite.render.config.ts; server/render/). After `vite build` has written the client, this plugin:
 *  1. keeps the unrendered SPA shell as `dist/200.html` (the page of every path the server does not render,
 *     and of a static host);
 *  2. lists in the build manifest (`prerendered`) the paths and `/**` prefixes the route rules render with a
 *     payload beside them (`renderedPaths`), which the client reads `{path}/_payload.json` for.
 * `vite preview` serves the shell for every page (it renders nothing); `npm start` renders.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { renderedPaths, routeRules } from '../core/routeRules.ts';

const SHELL = '200.html';
const BUILDS = '_app/builds';

export function prerenderPages(): Plugin {
  let outDir = 'dist';
  let buildId = '';
  let enabled = false;
  return {
    name: 'campaign-web:prerender',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      enabled = config.command === 'build' && !config.build.ssr;
      const define = config.define?.__BUILD_ID__;
      buildId = typeof define === 'string' ? JSON.parse(define) : '';
    },
    async closeBundle() {
      if (!enabled) return;
      const shell = await readFile(join(outDir, 'index.html'), 'utf8');
      await writeFile(join(outDir, SHELL), shell);
      const paths = renderedPaths(routeRules);
      const metaFile = join(outDir, BUILDS, 'meta', `${buildId}.json`);
      const meta = JSON.parse(await readFile(metaFile, 'utf8'));
      await writeFile(metaFile, JSON.stringify({ ...meta, prerendered: paths }));
    },
  };
}
