// Runs the Playwright suite against the production build on a free port with a fresh demo database.
// Extra arguments go to `playwright test` (e.g. `npm run test:e2e -- e2e/routes.spec.ts`).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import getPort from 'get-port';
import { findChromium } from './find-chromium.mjs';

const chromium = findChromium();
if (!chromium) {
  console.error(
    'No Chromium found: install it with `sudo apt-get install -y chromium` (Debian) or set CHROME_PATH.',
  );
  process.exit(1);
}
const outDir = process.env.E2E_OUT_DIR ?? 'dist';
if (!existsSync(`${outDir}/index.html`) || !existsSync('dist-server/main.mjs')) {
  console.error(`No production build in ${outDir}/: run \`npm run build\` first.`);
  process.exit(1);
}

// The journeys' other two engines (docs/browsers.md); `--project=chromium` runs without them.
const chromiumOnly = process.argv.slice(2).some((arg) => arg === '--project=chromium');
const missing = [
  ['firefox-esr', process.env.FIREFOX_PATH || '/usr/bin/firefox-esr', 'firefox-esr'],
  ['WebKitWebDriver', process.env.WEBKIT_WEBDRIVER_PATH || '/usr/bin/WebKitWebDriver', 'webkit2gtk-driver'],
].filter(([, path]) => !existsSync(path));
if (!chromiumOnly && missing.length > 0) {
  console.error(
    `The journeys also run in Firefox ESR and WebKitGTK, and ${missing.map(([name]) => name).join(' and ')} ` +
      `is missing: install it with \`sudo apt-get install -y ${missing.map(([, , pkg]) => pkg).join(' ')} xvfb\` ` +
      '(Debian), or run Chromium alone with `npm run test:e2e -- --project=chromium`.',
  );
  process.exit(1);
}

const port = await getPort();
const dataDir = mkdtempSync(join(tmpdir(), 'campaign-web-e2e-'));
// WebKitGTK's MiniBrowser needs an X display even when nothing is looked at: without one, the run gets a
// virtual one (Xvfb) of its own.
const args = ['playwright', 'test', ...process.argv.slice(2)];
const command =
  !process.env.DISPLAY && hasCommand('xvfb-run') ? ['xvfb-run', '-a', 'npx', ...args] : ['npx', ...args];
const result = spawnSync(command[0], command.slice(1), {
  stdio: 'inherit',
  env: { ...process.env, E2E_PORT: String(port), E2E_DATA_DIR: dataDir, CHROME_PATH: chromium },
});
rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}
