// @vitest-environment node
/**
 * The production artifact's assembly (build/outputArtifact.ts) on a small made-up build, and its runtime
 * package files on the project's real ones. tests/server/output.test.ts installs and runs the real artifact.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  filesOfOutput,
  relativeImports,
  runtimeLockfile,
  runtimeManifest,
  writeOutput,
} from '../../build/outputArtifact';
import { serverLayout } from '../../server/layout';

const MANIFEST = {
  name: 'shop',
  version: '1.2.3',
  engines: { node: '>=22.12' },
  scripts: { prepare: 'panda codegen', build: 'vite build' },
  dependencies: { fastify: '^5.0.0', pg: '^8.0.0' },
  devDependencies: { react: '^19.0.0', vite: '^8.0.0' },
  overrides: { 'some-dialect': { pg: '$pg' } },
};

const LOCK = {
  name: 'shop',
  version: '1.2.3',
  lockfileVersion: 3,
  requires: true,
  packages: {
    '': { name: 'shop', version: '1.2.3', dependencies: MANIFEST.dependencies, devDependencies: {} },
    'node_modules/fastify': { version: '5.1.0', license: 'MIT' },
    'node_modules/pg': { version: '8.2.0' },
    'node_modules/react': { version: '19.0.0', dev: true },
    'node_modules/vite': { version: '8.0.0', dev: true },
    // Needed only as an optional dependency of a runtime package, and also by a dev one.
    'node_modules/pg-native': { version: '3.0.0', devOptional: true, optional: true },
    'node_modules/@img/sharp-linux-x64': { version: '0.34.5', optional: true },
    'node_modules/vite/node_modules/esbuild': { version: '0.25.0', dev: true },
  },
};

describe('the runtime package.json', () => {
  it('keeps the runtime dependencies, their overrides and engines, and starts the server; nothing of development', () => {
    expect(runtimeManifest(MANIFEST)).toEqual({
      name: 'shop-server',
      version: '1.2.3',
      private: true,
      type: 'module',
      engines: { node: '>=22.12' },
      scripts: { start: 'node server/index.mjs' },
      dependencies: { fastify: '^5.0.0', pg: '^8.0.0' },
      overrides: { 'some-dialect': { pg: '$pg' } },
    });
  });

  it('has no engines or overrides when the project has none', () => {
    const bare = runtimeManifest({ name: 'x', dependencies: {} });
    expect(bare).not.toHaveProperty('engines');
    expect(bare).not.toHaveProperty('overrides');
    expect(bare.version).toBe('0.0.0');
  });
});

describe('the runtime lockfile', () => {
  it('drops every package only development needs and keeps the rest where npm put it', () => {
    const lock = runtimeLockfile(LOCK, MANIFEST);
    expect(Object.keys(lock.packages)).toEqual([
      '',
      'node_modules/fastify',
      'node_modules/pg',
      'node_modules/pg-native',
      'node_modules/@img/sharp-linux-x64',
    ]);
    expect(lock.packages['node_modules/fastify']).toEqual({ version: '5.1.0', license: 'MIT' });
  });

  it('describes the runtime package.json in its root entry, as npm ci checks', () => {
    const lock = runtimeLockfile(LOCK, MANIFEST);
    expect(lock).toMatchObject({ name: 'shop-server', version: '1.2.3', lockfileVersion: 3, requires: true });
    expect(lock.packages['']).toEqual({
      name: 'shop-server',
      version: '1.2.3',
      dependencies: { fastify: '^5.0.0', pg: '^8.0.0' },
      engines: { node: '>=22.12' },
    });
  });

  it('refuses a lockfile from before npm 7, which has no `packages` to cut', () => {
    expect(() => runtimeLockfile({ ...LOCK, lockfileVersion: 1 }, MANIFEST)).toThrow(/version 1/);
  });

  it("on the project's own files: every runtime dependency is locked, no browser-only package is", async () => {
    const manifest = JSON.parse(await readFile('package.json', 'utf8'));
    const lock = runtimeLockfile(JSON.parse(await readFile('package-lock.json', 'utf8')), manifest);
    for (const name of Object.keys(manifest.dependencies)) {
      expect(lock.packages[`node_modules/${name}`], name).toBeDefined();
    }
    for (const name of ['react', 'react-dom', 'xstate', '@xstate/react', '@ark-ui/react', 'vite', 'vitest']) {
      expect(lock.packages[`node_modules/${name}`], name).toBeUndefined();
    }
  });
});

describe('relative imports of a bundled module', () => {
  it('finds static, side-effect and dynamic imports of sibling chunks, and no package', () => {
    const source = [
      'import { a } from "./chunk-a.mjs";',
      "import './chunk-b.mjs';",
      'const c = await import("./chunk-c.mjs");',
      'import fastify from "fastify";',
      'export { d } from "./chunk-a.mjs";',
      'const text = "from ./nowhere";',
    ].join('\n');
    expect(relativeImports(source)).toEqual(['chunk-a.mjs', 'chunk-b.mjs', 'chunk-c.mjs']);
  });
});

describe('writing the artifact', () => {
  let root: string;
  const put = async (relative: string, content: string) => {
    const file = path.join(root, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  };

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'campaign-web-output-unit-'));
    await put('package.json', JSON.stringify(MANIFEST));
    await put('package-lock.json', JSON.stringify(LOCK));
    await put('dist/index.html', '<!doctype html>');
    await put('dist/index.html.br', 'br');
    await put('dist/campaign/1/index.html', '<!doctype html>1');
    await put('dist/.forms/login.html', 'template');
    await put('dist/.build-env.json', '{}');
    await put('dist/.vite/manifest.json', '{}');
    await put('dist-server/main.mjs', 'import { x } from "./shared-1.mjs";\nimport "fastify";\n');
    await put('dist-server/shared-1.mjs', 'import "./deep-2.mjs";\nexport const x = 1;\n');
    await put('dist-server/deep-2.mjs', '');
    await put('dist-server/finalize.mjs', 'import { x } from "./shared-1.mjs";\nimport "vite";\n');
    await put('dist-server/main.mjs.map', '{}');
    await put('api/fixtures/images/campaigns/one.jpg', 'jpeg');
    await put('.output/stale.txt', 'from the last build');
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('holds public/, the server entry and what it imports, the images and the package files, and nothing else', async () => {
    const outputDir = path.join(root, '.output');
    const written = await writeOutput({
      root,
      distDir: path.join(root, 'dist'),
      serverDir: path.join(root, 'dist-server'),
      outputDir,
    });
    expect(written).toEqual({ modules: 3, packages: 4 });
    expect(await filesOfOutput(outputDir)).toEqual([
      'package-lock.json',
      'package.json',
      'public/.build-env.json',
      'public/.forms/login.html',
      'public/campaign/1/index.html',
      'public/index.html',
      'public/index.html.br',
      'server/deep-2.mjs',
      'server/images/campaigns/one.jpg',
      'server/index.mjs',
      'server/shared-1.mjs',
    ]);
    expect(await readFile(path.join(outputDir, 'server/index.mjs'), 'utf8')).toContain('./shared-1.mjs');
    expect(JSON.parse(await readFile(path.join(outputDir, 'package.json'), 'utf8'))).toEqual(
      runtimeManifest(MANIFEST),
    );
    expect(existsSync(`${outputDir}.tmp`)).toBe(false);
  });

  it('is laid out as the server expects to find it from its entry', () => {
    const outputDir = path.join(root, '.output');
    const layout = serverLayout(`file://${path.join(outputDir, 'server/index.mjs')}`);
    expect(layout.distDir).toBe(path.join(outputDir, 'public'));
    expect(existsSync(path.join(layout.distDir, 'index.html'))).toBe(true);
    expect(existsSync(path.join(layout.imagesDir, 'campaigns/one.jpg'))).toBe(true);
  });
});

describe('where the server looks for its files', () => {
  it('in a checkout: dist/ and the API fixtures, from server/ or dist-server/', () => {
    for (const entry of ['/repo/server/main.ts', '/repo/dist-server/main.mjs']) {
      expect(serverLayout(`file://${entry}`)).toEqual({
        kind: 'checkout',
        distDir: '/repo/dist',
        imagesDir: '/repo/api/fixtures/images',
      });
    }
  });

  it('in the artifact: public/ and server/images/ beside the entry, wherever it was copied', () => {
    expect(serverLayout('file:///anywhere/app/server/index.mjs')).toEqual({
      kind: 'artifact',
      distDir: '/anywhere/app/public',
      imagesDir: '/anywhere/app/server/images',
    });
  });
});

describe('npm run serve', () => {
  it('says in one line that there is no build to serve, and exits 1', () => {
    const missing = path.join(tmpdir(), 'campaign-web-no-output');
    const result = spawnSync(process.execPath, ['scripts/ci/serve.mjs'], {
      env: { ...process.env, OUTPUT_DIR: missing },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `No production build at ${path.join(missing, 'server/index.mjs')}: run \`npm run build\` first.\n`,
    );
  });
});
