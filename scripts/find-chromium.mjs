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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (!findChromium()) {
    console.error(
      'No Chromium found: install it with `sudo apt-get install -y chromium` (Debian) or set CHROME_PATH to a Chromium binary.',
    );
    process.exit(1);
  }
}
