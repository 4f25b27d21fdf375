import { defineConfig } from '@playwright/test';
import type { EngineName } from './e2e/journeys/engines/engine';

// scripts/ci/e2e.mjs picks the free port and the data folder once, before any worker starts.
const port = Number(process.env.E2E_PORT) || 4173;
const baseURL = `http://127.0.0.1:${port}`;

/** Headless Chromium's own user agent counts as a crawler, which would hide every error page. */
export const DESKTOP_CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';

/** Opens GET /api/reports on the e2e server, so e2e/reports.spec.ts can read back what a page reported. */
export const REPORTS_TOKEN = 'e2e-reports-read-token-of-32-chars';

/** The visitor's journeys (e2e/journeys/), written once: the Chromium project runs them with the whole suite. */
const JOURNEYS = 'journeys.spec.ts';

export default defineConfig<object, { engineName: EngineName }>({
  testDir: 'e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list']] : [['list']],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL,
    userAgent: DESKTOP_CHROME_UA,
    launchOptions: {
      executablePath: process.env.CHROME_PATH || '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic'],
    },
    trace: 'retain-on-failure',
  },
  // A failure names its engine: `[chromium]`, `[firefox]` or `[webkit]` before the test's title. One engine
  // alone: `npm run test:e2e -- --project=webkit` (docs/browsers.md).
  projects: [
    { name: 'chromium', use: { engineName: 'chromium' } },
    { name: 'firefox', testMatch: JOURNEYS, use: { engineName: 'firefox' } },
    { name: 'webkit', testMatch: JOURNEYS, use: { engineName: 'webkit' } },
  ],
  webServer: {
    // The production server (server/main.ts, built by `npm run build`) on the build, as `npm start` runs it.
    // E2E_OUT_DIR lets a second build be tested while another engineer's run uses dist/.
    command: 'node dist-server/main.mjs',
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    // A fresh database is migrated and seeded (argon2 hashes) before it listens: slow on a loaded machine.
    timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS) || 60_000,
    // Its one-line request logs would drown Playwright's report; errors still show.
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DIST_DIR: process.env.E2E_OUT_DIR ?? 'dist',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e',
      LOG_LEVEL: 'warn',
      // Every spec signs in from 127.0.0.1: the per-address limit would count the whole suite's wrong
      // passwords together. The per-account limit (e2e/signInLimits.spec.ts) keeps its default.
      SIGN_IN_FAILURES_PER_ADDRESS: '1000',
      // Many specs show error pages from the same address; each sends a report.
      REPORTS_PER_ADDRESS: '10000',
      REPORTS_TOKEN,
    },
  },
});
