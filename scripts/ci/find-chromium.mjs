// Finds the Chromium that Playwright drives (Playwright cannot download its own browser here).
// As a command: exits 1 with one clear line when there is none, so `npm test` stops at once.
import { existsSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

export function findChromium() {
  const candidates = [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
    Boolean,
  );
  return candidates.find((path) => existsSync(path)) ?? null;
}

/**
 * A desktop Chrome user agent for the benchmarks: headless Chromium's own (`HeadlessChrome`) is a crawler for
 * `isbot`, and the app treats crawlers differently.
 */
export const DESKTOP_CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** The Chromium to benchmark with; exits with one clear line when there is none. */
export function requireChromium() {
  const path = findChromium();
  if (!path) {
    console.error('No Chromium found: set CHROME_PATH.');
    process.exit(1);
  }
  return path;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!findChromium()) {
    console.error(
      'No Chromium found: install it with `sudo apt-get install -y chromium` (Debian) or set CHROME_PATH to a Chromium binary.',
    );
    process.exit(1);
  }
}
