// The size budget of the first load, run by `npm test` after the build. Sizes are deterministic,
// so they are tested; timings are not (see `npm run bench`). Gzip level 6, 1 kB = 1000 bytes.
//
// Deterministic up to a few bytes: every build stamps a new build ID into the entry (update detection), which
// changes the entry's hash and so every file name that imports it; the gzip sizes move by up to about 20 bytes
// from one build to the next (116,994 and 117,007 for the gallery, the same commit built twice). So outside CI
// a first load passes only with `BUILD_NOISE_BYTES` to spare, and a limit that holds here holds on CI's build;
// CI itself checks the limit as it is.
//
// The limits are ratchets: they hold what has been reached, so nothing grows back unnoticed. Lower them as the
// first load shrinks; never raise them without a reason in the commit that does (docs/performance.md has the
// figures).
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { firstLoads, readManifest } from './first-load.mjs';

const LIMITS = {
  /**
   * JavaScript of `/` before its page shows: entry, static imports, the page chunk and its imports. What must run
   * before the first page is in it: the three start parts (src/main.tsx: React, the machines with the browser's
   * implementations, the views), Back and Forward (the app machine's page memory, scroll positions by history
   * key, arrival), the event log for replayable error reports, V8's compile hint at the head of every chunk
   * (build/compileHints.ts), the call that fetches the font warm-up at idle (src/platform/fonts.ts), the landing
   * list's "More campaigns" cursor, a start cut short by leaving the page (src/platform/boot.ts) and the API
   * client's refusals by field (sign-up, password change).
   */
  indexJsGzip: 119_700,
  /**
   * The same for every other route (the gallery, the largest, sets it): the shared first load above plus each
   * page's chunk; the forms that hydrate what was typed or posted before the app ran (src/platform/formState.ts)
   * are in it too. The gallery's small shared chunks are the next candidates to fold.
   */
  routeJsGzip: 123_500,
  /** CSS of any route's first load. */
  cssGzip: 8_000,
  /** Smaller chunks cost a request (and a modulepreload) for next to nothing: fold them into an importer. */
  smallestChunkBytes: 200,
};

/** Above the largest difference seen between two builds of one commit (13 bytes). */
const BUILD_NOISE_BYTES = 50;
const spare = process.env.CI ? 0 : BUILD_NOISE_BYTES;

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

test('the build exists', () => {
  assert.ok(existsSync('dist/.vite/manifest.json'), 'run `npm run build` first');
});

const loads = existsSync('dist/.vite/manifest.json') ? firstLoads('dist') : {};

for (const [route, load] of Object.entries(loads)) {
  const limit = route === '/' ? LIMITS.indexJsGzip : LIMITS.routeJsGzip;
  test(`first-load JavaScript of ${route} is at most ${kB(limit)} gzip`, () => {
    assert.ok(
      load.jsSize.gzip + spare <= limit,
      `${route} loads ${load.jsSize.gzip} bytes gzip of JavaScript (${load.js.join(', ')}), ` +
        (spare ? `not ${spare} bytes (a build's noise) under ${kB(limit)}` : `over ${kB(limit)}`),
    );
  });
  test(`first-load CSS of ${route} is at most ${kB(LIMITS.cssGzip)} gzip`, () => {
    assert.ok(load.cssSize.gzip <= LIMITS.cssGzip, `${route} loads ${kB(load.cssSize.gzip)} gzip of CSS`);
  });
}

test(`no first load lists a chunk under ${LIMITS.smallestChunkBytes} bytes`, async () => {
  const { statSync } = await import('node:fs');
  for (const [route, load] of Object.entries(loads)) {
    for (const file of load.js) {
      const bytes = statSync(`dist/${file}`).size;
      assert.ok(
        bytes >= LIMITS.smallestChunkBytes,
        `${route} loads ${file}, ${bytes} bytes: fold it into its importer`,
      );
    }
  }
});

test("every chunk of a first load begins with V8's compile hint, and a chunk loaded for one feature does not", async () => {
  const { readFileSync } = await import('node:fs');
  const hint = '//# allFunctionsCalledOnLoad\n';
  for (const [route, load] of Object.entries(loads)) {
    for (const file of load.js) {
      const code = readFileSync(`dist/${file}`, 'utf8');
      assert.ok(
        code.startsWith(hint),
        `${route} loads ${file}, which is compiled lazily (build/compileHints.ts)`,
      );
    }
  }
  const vitals = readManifest()['src/platform/vitals.ts'];
  assert.ok(vitals, 'the build has a chunk for src/platform/vitals.ts');
  assert.ok(!readFileSync(`dist/${vitals.file}`, 'utf8').startsWith(hint), `${vitals.file} holds the hint`);
});

test('no development build of React ships', async () => {
  const { readFileSync } = await import('node:fs');
  for (const load of Object.values(loads)) {
    for (const file of load.js) {
      const code = readFileSync(`dist/${file}`, 'utf8');
      assert.ok(!code.includes('react-dom.development'), `${file} holds React's development build`);
      assert.ok(!code.includes('Warning: '), `${file} holds React's development warnings`);
    }
  }
});

test("no first load carries Panda's style runtime (build/staticStyles.ts folds the calls at build)", async () => {
  const { readFileSync } = await import('node:fs');
  for (const [route, load] of Object.entries(loads)) {
    for (const file of load.js) {
      const code = readFileSync(`dist/${file}`, 'utf8');
      // The utility table of styled-system/css/css.mjs, which only the runtime needs.
      assert.ok(
        !code.includes('aspectRatio:asp'),
        `${route} loads ${file}, which holds Panda's css() runtime`,
      );
    }
  }
});
