/**
 * The production artifact, in Nitro's layout: `npm run build` ends by assembling `.output/` from what it wrote,
 *
 *   .output/package.json, package-lock.json   the runtime dependencies only (`npm ci --omit=dev` installs them)
 *   .output/server/index.mjs (+ its chunks)    the server bundle of dist-server/ (server/main.ts)
 *   .output/server/images/                     the image optimiser's source images
 *   .output/public/                            dist/: the app, prerendered pages, payloads, the failure template
 *                                              of the sign-in form, `.build-env.json`; every HTML file the CSP
 *                                              hashes are computed from
 *
 * so that `cp -r .output /anywhere && cd /anywhere && npm ci --omit=dev && node server/index.mjs` serves the
 * whole product. The server finds public/ and images/ beside its entry (server/layout.ts). Built into
 * dist-server/finalize.mjs with the build's last step.
 */
import { cp, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  ARTIFACT_ENTRY,
  ARTIFACT_IMAGES_DIR,
  ARTIFACT_PUBLIC_DIR,
  ARTIFACT_SERVER_DIR,
  CHECKOUT_IMAGES_DIR,
} from '../server/layout.ts';

/** The server's entry in dist-server/ (vite.server.config.ts names it). */
export const SERVER_ENTRY = 'main.mjs';

interface PackageManifest {
  readonly name?: string;
  readonly version?: string;
  readonly engines?: Record<string, string>;
  readonly dependencies?: Record<string, string>;
  readonly overrides?: Record<string, unknown>;
}

interface LockEntry {
  readonly dev?: boolean;
  readonly [key: string]: unknown;
}

interface Lockfile {
  readonly lockfileVersion: number;
  readonly packages: Record<string, LockEntry>;
  readonly [key: string]: unknown;
}

/** The artifact's package.json: the project's runtime dependencies and their overrides, and how to start it. */
export function runtimeManifest(manifest: PackageManifest): Record<string, unknown> {
  return {
    name: `${manifest.name ?? 'app'}-server`,
    version: manifest.version ?? '0.0.0',
    private: true,
    type: 'module',
    ...(manifest.engines ? { engines: manifest.engines } : {}),
    scripts: { start: `node ${ARTIFACT_SERVER_DIR}/${ARTIFACT_ENTRY}` },
    dependencies: manifest.dependencies ?? {},
    ...(manifest.overrides ? { overrides: manifest.overrides } : {}),
  };
}

/**
 * The project's lockfile cut down to what `npm ci --omit=dev` installs: npm marks every package reached only
 * through devDependencies `dev: true`, so the rest is the runtime tree, at the same versions, in the same
 * places (packages needed both ways, or optional under a runtime one, carry no `dev` flag and stay). The root
 * entry describes the artifact's package.json, as `npm ci` checks that the two agree.
 */
export function runtimeLockfile(lock: Lockfile, manifest: PackageManifest): Lockfile {
  if (lock.lockfileVersion < 2)
    throw new Error(`package-lock.json version ${lock.lockfileVersion}: npm 7 or later writes version 3.`);
  const runtime = runtimeManifest(manifest);
  const packages: Record<string, LockEntry> = {
    '': {
      name: runtime.name,
      version: runtime.version,
      dependencies: runtime.dependencies,
      ...(manifest.engines ? { engines: manifest.engines } : {}),
    },
  };
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (where !== '' && entry.dev !== true) packages[where] = entry;
  }
  return {
    name: runtime.name,
    version: runtime.version,
    lockfileVersion: 3,
    requires: true,
    packages,
  };
}

/** The relative modules an ES module imports (`from "./x.mjs"`, `import("./x.mjs")`), as the bundler writes them. */
export function relativeImports(source: string): string[] {
  const found = new Set<string>();
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'](\.\/[^"']+)["']/g)) {
    if (match[1]) found.add(match[1].slice(2));
  }
  return [...found];
}

/** The entry and every chunk it reaches, so finalize.mjs (which imports Vite) stays out. */
async function serverFiles(serverDir: string): Promise<string[]> {
  const files: string[] = [];
  const queue = [SERVER_ENTRY];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (files.includes(file)) continue;
    files.push(file);
    queue.push(...relativeImports(await readFile(path.join(serverDir, file), 'utf8')));
  }
  return files;
}

/** A folder of the build that the server never reads and no host should publish: Vite's own manifest. */
const BUILD_ONLY = new Set(['.vite']);

export interface OutputOptions {
  /** The project root: package.json, package-lock.json, the source images. */
  readonly root: string;
  /** The finished client build (dist/). */
  readonly distDir: string;
  /** The server bundle (dist-server/). */
  readonly serverDir: string;
  /** Where the artifact goes (.output/), replaced whole. */
  readonly outputDir: string;
}

/** Writes the artifact; answers with the number of server modules and runtime packages in it. */
export async function writeOutput(options: OutputOptions): Promise<{ modules: number; packages: number }> {
  const { root, distDir, serverDir, outputDir } = options;
  // Written beside, then moved in place: a failed build never leaves half an artifact where the old one was.
  const staging = `${outputDir}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(path.join(staging, ARTIFACT_SERVER_DIR), { recursive: true });
  await cp(distDir, path.join(staging, ARTIFACT_PUBLIC_DIR), {
    recursive: true,
    filter: (source) => !BUILD_ONLY.has(path.relative(distDir, source).split(path.sep)[0] ?? ''),
  });
  const modules = await serverFiles(serverDir);
  for (const file of modules) {
    const target = file === SERVER_ENTRY ? ARTIFACT_ENTRY : file;
    await cp(path.join(serverDir, file), path.join(staging, ARTIFACT_SERVER_DIR, target));
  }
  await cp(path.join(root, CHECKOUT_IMAGES_DIR), path.join(staging, ARTIFACT_IMAGES_DIR), {
    recursive: true,
  });
  const manifest = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as PackageManifest;
  const lock = JSON.parse(await readFile(path.join(root, 'package-lock.json'), 'utf8')) as Lockfile;
  const runtimeLock = runtimeLockfile(lock, manifest);
  await writeFile(
    path.join(staging, 'package.json'),
    `${JSON.stringify(runtimeManifest(manifest), null, 2)}\n`,
  );
  await writeFile(path.join(staging, 'package-lock.json'), `${JSON.stringify(runtimeLock, null, 2)}\n`);
  await rm(outputDir, { recursive: true, force: true });
  await rename(staging, outputDir);
  return { modules: modules.length, packages: Object.keys(runtimeLock.packages).length - 1 };
}

/** Every file of the artifact, relative and `/`-separated (for the build's summary and the tests). */
export async function filesOfOutput(outputDir: string): Promise<string[]> {
  const entries = await readdir(outputDir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(outputDir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    )
    .sort();
}
