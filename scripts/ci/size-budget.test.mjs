// The size budget of the first load (issue 13), run by `npm test` after the build. Sizes are deterministic,
// so they are tested; timings are not (see `npm run bench`). Gzip level 6, 1 kB = 1000 bytes.
//
// Deterministic up to a few bytes: every build stamps a new build ID into the entry (update detection), which
// changes the entry's hash and so every file name that imports it; the gzip sizes move by up to about 20 bytes
// from one build to the next (116,994 and 117,007 for the gallery, the same commit built twice). So outside CI
// a first load passes only with `BUILD_NOISE_BYTES` to spare, and a limit that holds here holds on CI's build;
// CI itself checks the limit as it is.
//
// Issue 13's targets are 100 kB for `/` and 110 kB for any route. The build is not there yet (see the
// README's performance section): these limits hold what has been reached, so nothing grows back while the
// rest is done. Lower them as the first load shrinks; never raise them without a reason in the commit.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { firstLoads, readManifest } from './first-load.mjs';

const LIMITS = {
  /**
   * JavaScript of `/` before its page shows: entry, static imports, the page chunk and its imports. Raised from
   * 113.0 with the routes' (below): the features of this round that must run before the app's first page; then
   * by 0.1 kB, with the routes', for the colour-mode control's first-paint stand-in as a disabled radio group
   * (real disabled inputs, so that it no longer looks ready while it is not) together with the navigation's
   * view mirror (a transition, so a click paints before the page renders): about 70 bytes in all. Lowered to
   * 113.3 when the tooltips stopped watching the whole document for a first intent (about 100 bytes). Raised to
   * 115.5 for Back and Forward (issue 33), which must run from the first page: measured 113,235 -> 115,425 bytes
   * (+7.1 kB raw) in all: the app machine's page memory, fragment links and bfcache re-check (with the session's
   * `rechecking` state), the browser side (scroll positions by history key, arrival by kind, view transitions),
   * and React's `flushSync` for the transition's callback (0.1 kB of it, measured by building without it).
   * Raised by 0.1 kB, with the routes', for views and commands only (issue 34): the app view's commands and
   * prefetch view, which components reach through useAppCommands and useManifestSource, and arrival's own
   * tabindex: 111 bytes on `/` and 109 on the gallery, two builds side by side (113,233 before, 113,344 after).
   * Raised to 116.0 when issues 32 to 35 met on main: 115,908 bytes, 0.3 kB over the sum of the branches' own
   * figures, each measured from its own start: `/` checking its featured campaigns again (32) and the start
   * after the first paint (35) share the code each of the others grew. Raised to 118.7 when the app's start was
   * split into three parts evaluated one task each (issue 35's blocking time: src/main.tsx): the same code in 13
   * files instead of 5 (the modules the start part shares with the pages' chunks now sit in small chunks of
   * their own, each with its imports and exports and its own compression): 115,633 -> 118,639 bytes, the same
   * commit built with and without the split. Raised to 119.0 when the app actor came to be made outside React's
   * render (src/start.tsx, AppActorProvider): the chunking moved again (the toaster's helpers in a chunk of
   * their own): 118,879 bytes. Raised to 119.3 for V8's compile hint in front of every chunk of a first load
   * (build/compileHints.ts: 29 bytes a file, about 22 gzip; main-thread compiling in a navigation's click fell
   * by about two thirds): 118,876 -> 119,186 bytes, the same commit built with and without it. Raised to 119.4
   * for the call that fetches the font warm-up at idle (src/platform/fonts.ts, a chunk of its own; inside the
   * first load it cost 660 bytes): 119,186 -> 119,267.
   */
  indexJsGzip: 119_400,
  /**
   * The same for every other route. Raised from 116.0 for what must start with the app actor: recording its
   * events for replayable error reports (src/platform/eventLog.ts, about 0.45 kB gzip; the reporter, the
   * scrubber and web-vitals load only when there is something to send), the forms that hydrate what was typed
   * or posted before the app ran (src/platform/formState.ts) and the views' commands. Lower it again as the
   * first load shrinks (the gallery's small shared chunks are the next candidates). The gallery's tooltips
   * now render their triggers themselves and bring their machines only when pointed at (about 100 bytes, paid
   * for by the shared first load's 100 bytes fewer, so the limit stays). Raised by 0.1 kB because 117.0 had
   * been set 6 bytes above the gallery's size, inside the build ID's noise (above): CI's build was 13 bytes
   * larger than the one the limit was set from. Raised to 119.3 for Back and Forward (issue 33), as `/` above:
   * the gallery (the largest) measured 116,994 -> 119,227 bytes, 43 of them its new link to a #fragment. Raised
   * by 0.1 kB with `/`'s for views and commands (issue 34, above): 116,992 to 117,101 before Back and Forward.
   * Raised to 119.8 with `/`'s when issues 32 to 35 met on main (above): the gallery measured 119,709. Raised to
   * 122.6 with `/`'s for the start in three parts (above): the gallery 119,434 -> 122,523; to 122.9 with the
   * actor made outside React's render: 122,769; to 123.3 with `/`'s for the compile hint: 122,761 -> 123,153.
   */
  routeJsGzip: 123_300,
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
