/**
 * Pages rendered on request from the database, cached per instance and never stale after a write: two server
 * processes of the build on one PostgreSQL, campaigns written with SQL straight into it (as any writer would:
 * the API, a migration, an operator), and each instance's next HTML, read with JavaScript off, showing the write
 * with its Open Graph tags. Then one instance's notification connection is terminated from PostgreSQL and a
 * write made meanwhile: its next HTML is still right, and it listens again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from '@playwright/test';
import getPort from 'get-port';
import pg from 'pg';
import { expect, test } from './fixtures';
import { startPostgres, type TestPostgres } from './support/postgres';

/** A status the landing page lists (api/campaignList.ts LISTED_STATUSES), and one public but not listed. */
const LIVE = 'active';
const NOT_LIVE = 'completed';
const ID = 7001;

interface Instance {
  readonly base: string;
  readonly child: ChildProcess;
}

let postgres: TestPostgres;
let sql: pg.Client;
let dataDir: string;
const instances: Instance[] = [];

async function startInstance(url: string): Promise<Instance> {
  const port = await getPort();
  const child = spawn(process.execPath, ['dist-server/main.mjs'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DIST_DIR: process.env.E2E_OUT_DIR ?? 'dist',
      DATA_DIR: path.join(dataDir, String(port)),
      DATABASE_URL: url,
      DEMO_DATA: '1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status, { timeout: 60_000 })
    .toBe(200);
  return { base, child };
}

async function html(instance: Instance, pathname: string): Promise<{ body: string; cache: string | null }> {
  const response = await fetch(`${instance.base}${pathname}`, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(200);
  return { body: await response.text(), cache: response.headers.get('x-page-cache') };
}

/** What a browser without JavaScript shows of a page: its heading and its Open Graph title. */
async function withoutJavaScript(browser: Browser, url: string) {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(url);
    return {
      heading: await page.locator('main h1').first().textContent(),
      ogTitle: await page.locator('meta[property="og:title"]').getAttribute('content'),
      ogDescription: await page.locator('meta[property="og:description"]').getAttribute('content'),
      text: await page.locator('main').textContent(),
    };
  } finally {
    await context.close();
  }
}

test.describe.configure({ mode: 'serial', timeout: 120_000 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  postgres = await startPostgres();
  dataDir = mkdtempSync(path.join(tmpdir(), 'campaign-web-e2e-render-'));
  // One after the other: the first migrates and writes the demo data.
  instances.push(await startInstance(postgres.url));
  instances.push(await startInstance(postgres.url));
  sql = new pg.Client({ connectionString: postgres.url });
  await sql.connect();
});

test.afterAll(async () => {
  await sql?.end();
  for (const { child } of instances) child.kill('SIGTERM');
  await Promise.all(
    instances.map(
      ({ child }) =>
        new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve))),
    ),
  );
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

test('a campaign published is in the next HTML of / and of its page, on both instances, with its preview tags', async ({
  browser,
}) => {
  const [one, two] = instances as [Instance, Instance];
  // Both instances have / cached before the write.
  for (const instance of [one, two]) {
    await html(instance, '/');
    expect((await html(instance, '/')).cache).toBe('hit');
  }
  await sql.query(
    `insert into campaigns (id, title, summary, description, status, goal, raised, owner_id, featured, image, starts_on, ends_on)
     values ($1, 'Canal Path Lights', 'Solar lights along the canal path.', 'Forty lights.', $2, 5000, 120, 'u1', false, null, '2026-01-01', '2026-12-31')`,
    [ID, LIVE],
  );
  for (const instance of [one, two]) {
    const landing = await withoutJavaScript(browser, `${instance.base}/`);
    expect(landing.text).toContain('Canal Path Lights');
    const campaign = await withoutJavaScript(browser, `${instance.base}/campaign/${ID}`);
    expect(campaign.heading).toBe('Canal Path Lights');
    expect(campaign.ogTitle).toBe('Canal Path Lights | campaign-web');
    expect(campaign.ogDescription).toBe('Solar lights along the canal path.');
  }
});

test('an edit is in the next HTML of both instances, and only the pages that show the campaign are rendered again', async ({
  browser,
}) => {
  const [one, two] = instances as [Instance, Instance];
  for (const instance of [one, two]) {
    await html(instance, `/campaign/${ID}`);
    await html(instance, '/campaign/1');
    expect((await html(instance, '/campaign/1')).cache).toBe('hit');
  }
  await sql.query(`update campaigns set title = 'Canal Path Lanterns', raised = 900 where id = $1`, [ID]);
  for (const instance of [one, two]) {
    await expect
      .poll(async () => (await html(instance, `/campaign/${ID}`)).body)
      .toContain('Canal Path Lanterns');
    const campaign = await withoutJavaScript(browser, `${instance.base}/campaign/${ID}`);
    expect(campaign.heading).toBe('Canal Path Lanterns');
    expect(campaign.ogTitle).toBe('Canal Path Lanterns | campaign-web');
    expect((await html(instance, '/')).body).toContain('Canal Path Lanterns');
    // Another campaign's page was not dropped.
    expect((await html(instance, '/campaign/1')).cache).toBe('hit');
  }
});

test('a campaign that is no longer live leaves the landing page of both instances at once', async ({
  browser,
}) => {
  const [one, two] = instances as [Instance, Instance];
  await sql.query(`update campaigns set status = $2 where id = $1`, [ID, NOT_LIVE]);
  for (const instance of [one, two]) {
    const landing = await withoutJavaScript(browser, `${instance.base}/`);
    expect(landing.text).not.toContain('Canal Path Lanterns');
  }
  // Back on the list for the next test.
  await sql.query(`update campaigns set status = $2 where id = $1`, [ID, LIVE]);
});

test('an instance whose notification connection is killed still answers the next HTML right, then listens again', async ({
  browser,
}) => {
  const [one] = instances as [Instance, Instance];
  await html(one, `/campaign/${ID}`);
  expect((await html(one, `/campaign/${ID}`)).cache).toBe('hit');
  const killed = await sql.query(
    `select pg_terminate_backend(pid) as ok from pg_stat_activity where application_name = $1`,
    [`campaign-web pages ${one.child.pid}`],
  );
  expect(killed.rows).toEqual([{ ok: true }]);
  // Written while that instance cannot hear it.
  await sql.query(`update campaigns set title = 'Canal Path Beacons' where id = $1`, [ID]);
  const campaign = await withoutJavaScript(browser, `${one.base}/campaign/${ID}`);
  expect(campaign.heading).toBe('Canal Path Beacons');
  expect((await html(one, '/')).body).toContain('Canal Path Beacons');
  // It reconnects with backoff, drops its cache, and caches again.
  await expect
    .poll(async () => (await (await fetch(`${one.base}/healthz`)).json()).pages.listener, { timeout: 30_000 })
    .toBe('listening');
  await html(one, `/campaign/${ID}`);
  const again = await html(one, `/campaign/${ID}`);
  expect(again.cache).toBe('hit');
  expect(again.body).toContain('Canal Path Beacons');
});

test('later pages of the list work without JavaScript, 12 campaigns at a time', async ({ browser }) => {
  const [one] = instances as [Instance, Instance];
  await sql.query(
    `insert into campaigns (id, title, summary, description, status, goal, raised, owner_id, featured, image, starts_on, ends_on)
     select 8000 + n, 'Street ' || n, 'Summary ' || n, 'd', $1, 100, 0, 'u1', false, null, '2026-01-01', '2026-12-31'
     from generate_series(1, 20) as n`,
    [LIVE],
  );
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto(`${one.base}/`);
    await expect(page.getByText('Street 20', { exact: true })).toBeVisible();
    await expect(page.getByText('Street 8', { exact: true })).toHaveCount(0);
    await page.getByRole('link', { name: 'More campaigns' }).click();
    await expect(page).toHaveURL(/\/\?after=c[0-9a-z]+$/);
    await expect(page.getByText('Street 8', { exact: true })).toBeVisible();
    await expect(page.getByText('Street 20', { exact: true })).toHaveCount(0);
  } finally {
    await context.close();
  }
});
