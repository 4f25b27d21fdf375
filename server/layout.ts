/**
 * Where the production server finds the build and the source images, from where its own module sits. Two
 * layouts hold the same server:
 *  - a checkout: `server/main.ts` (tsx) or `dist-server/main.mjs`, one folder below the project root, with the
 *    build in `dist/` and the images among the demo API's fixtures (`api/fixtures/images/`);
 *  - the artifact `npm run build` writes (Nitro's convention, build/outputArtifact.ts): `.output/server/index.mjs`
 *    with the build in `.output/public/` and the images in `.output/server/images/`. It is copied anywhere and
 *    run there, so nothing in it may point back into the checkout.
 * The artifact's entry is the only module named `index.mjs`: that name alone tells the two apart.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The artifact's entry file, in `.output/server/` (what `node server/index.mjs` runs). */
export const ARTIFACT_ENTRY = 'index.mjs';
/** The artifact's folders, relative to `.output/`. */
export const ARTIFACT_PUBLIC_DIR = 'public';
export const ARTIFACT_SERVER_DIR = 'server';
export const ARTIFACT_IMAGES_DIR = `${ARTIFACT_SERVER_DIR}/images`;
/** The source images in a checkout, relative to its root. */
export const CHECKOUT_IMAGES_DIR = 'api/fixtures/images';

export interface ServerLayout {
  readonly kind: 'artifact' | 'checkout';
  /** The build to serve (DIST_DIR overrides it). */
  readonly distDir: string;
  /** The image optimiser's source images. */
  readonly imagesDir: string;
}

/** The layout of the server whose entry module is at `moduleUrl` (its `import.meta.url`). */
export function serverLayout(moduleUrl: string): ServerLayout {
  const file = fileURLToPath(moduleUrl);
  // Both entries sit one folder below the root they serve from: `.output/server/`, `server/`, `dist-server/`.
  const root = path.resolve(path.dirname(file), '..');
  if (path.basename(file) === ARTIFACT_ENTRY) {
    return {
      kind: 'artifact',
      distDir: path.join(root, ARTIFACT_PUBLIC_DIR),
      imagesDir: path.join(root, ARTIFACT_IMAGES_DIR),
    };
  }
  return {
    kind: 'checkout',
    distDir: path.join(root, 'dist'),
    imagesDir: path.join(root, CHECKOUT_IMAGES_DIR),
  };
}
