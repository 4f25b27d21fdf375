// @vitest-environment node
/**
 * Where the prerender reads its pages' data (build/prerenderData.ts): a running deployment's API
 * (PRERENDER_API_URL), the deployment's PostgreSQL (DATABASE_URL), or an embedded database of its own. Each
 * data source here holds a campaign renamed from the seed, so a page read from the seed instead would show.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiApp } from '../../api/app';
import { testApiConfig } from '../../api/config';
import { type OpenDatabase, openDatabase } from '../../api/database/open';
import { prerenderSource, startBuildApi, withBuildApi } from '../../build/prerenderData';
import { backends, freshPostgresDatabase, openTestDatabase, WITH_DEMO_DATA } from '../support/apiHarness';

const RENAMED = 'Renamed in the deployment';

async function rename(database: OpenDatabase): Promise<void> {
  await sql`update campaigns set title = ${RENAMED} where id = 1`.execute(database.db);
}

/** What a page loader gets for `/api/campaigns/1` during the render. */
function titleSeenByLoader(apiBaseUrl: string): Promise<string> {
  return withBuildApi(apiBaseUrl, async () => {
    const body = (await (await fetch('/api/campaigns/1')).json()) as { campaign: { title: string } };
    return body.campaign.title;
  });
}

describe('the source the build environment names', () => {
  it('is a running site’s API first, then DATABASE_URL, then an embedded database', () => {
    expect(
      prerenderSource({
        PRERENDER_API_URL: 'https://campaigns.example/api/',
        DATABASE_URL: 'postgres://db/x',
      }),
    ).toEqual({ kind: 'api', apiBaseUrl: 'https://campaigns.example/api' });
    expect(prerenderSource({ DATABASE_URL: 'postgres://db/x', PRERENDER_DATA_DIR: '/d' })).toEqual({
      kind: 'database',
    });
    expect(prerenderSource({ PRERENDER_DATA_DIR: '/d' })).toEqual({ kind: 'embedded', copyOf: '/d' });
    expect(prerenderSource({ PRERENDER_API_URL: '', DATABASE_URL: '' })).toEqual({ kind: 'embedded' });
  });

  it('stops the build when PRERENDER_API_URL is no http(s) URL, instead of prerendering other data', () => {
    expect(() => prerenderSource({ PRERENDER_API_URL: 'campaigns.example/api' })).toThrow(
      'PRERENDER_API_URL="campaigns.example/api" is not a URL: expected a running site\'s API, such as https://campaigns.example/api.',
    );
    expect(() => prerenderSource({ PRERENDER_API_URL: 'ftp://campaigns.example/api' })).toThrow(
      'PRERENDER_API_URL must start with https:// or http://, not ftp://.',
    );
  });
});

describe('PRERENDER_API_URL: a running deployment', () => {
  let database: OpenDatabase;
  let deployment: FastifyInstance;
  let apiBaseUrl: string;

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    await rename(database);
    ({ app: deployment } = await createApiApp({ config: testApiConfig(), database }));
    apiBaseUrl = `${await deployment.listen({ port: 0, host: '127.0.0.1' })}/api`;
  }, 60_000);

  afterAll(async () => {
    await deployment?.close();
    await database?.close();
  });

  it('is what the page loaders read, with no API of the build’s own', async () => {
    const api = await startBuildApi({ PRERENDER_API_URL: apiBaseUrl, DATABASE_URL: '' });
    try {
      expect(api.apiBaseUrl).toBe(apiBaseUrl);
      expect(api.where).toBe(apiBaseUrl);
      expect(await titleSeenByLoader(api.apiBaseUrl)).toBe(RENAMED);
    } finally {
      await api.close();
    }
    // The deployment is left alone.
    expect((await fetch(`${apiBaseUrl}/campaigns/1`)).status).toBe(200);
  });

  it('takes a path under the API base, and sends other relative paths to its origin', async () => {
    const seen: string[] = [];
    const original = globalThis.fetch;
    globalThis.fetch = async (input) => {
      seen.push(String(input));
      return new Response('{}');
    };
    try {
      await withBuildApi('https://campaigns.example/v2/api', async () => {
        await fetch('/api/campaigns?featured=1');
        await fetch('/api');
        await fetch('/apical');
        await fetch('https://elsewhere.example/api/x');
      });
    } finally {
      globalThis.fetch = original;
    }
    expect(seen).toEqual([
      'https://campaigns.example/v2/api/campaigns?featured=1',
      'https://campaigns.example/v2/api',
      'https://campaigns.example/apical',
      'https://elsewhere.example/api/x',
    ]);
    expect(globalThis.fetch).toBe(original);
  });
});

describe('no data source given: an embedded database of the build’s own', () => {
  it('starts from what a new embedded database holds (the seed), and stops with the build', async () => {
    const api = await startBuildApi({});
    try {
      expect(api.apiBaseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api$/);
      expect(api.where).toBe('a new embedded database');
      expect(await titleSeenByLoader(api.apiBaseUrl)).toBe('Maple Street Community Garden');
    } finally {
      await api.close();
    }
    await expect(fetch(`${api.apiBaseUrl}/campaigns`)).rejects.toThrow();
  }, 120_000);
});

// Where a PostgreSQL server runs (CI's), as every PostgreSQL test here: backends() says so once when none does.
describe.each(backends().filter((kind) => kind === 'postgres'))('DATABASE_URL: the deployment’s %s', () => {
  it('is read through an API of the build’s own, and the password is never printed', async () => {
    const { url, drop } = await freshPostgresDatabase();
    const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 }, WITH_DEMO_DATA);
    try {
      await rename(database);
      // A deployment's data: no account takes a published demo password (with DEMO_DATA off, as here, the
      // build's API would refuse the database otherwise, as the server does: docs/api.md#demo-data).
      await sql`update users set password_hash = 'not a published password'`.execute(database.db);
      const api = await startBuildApi({ DATABASE_URL: url });
      try {
        expect(await titleSeenByLoader(api.apiBaseUrl)).toBe(RENAMED);
        const password = new URL(url).password;
        if (password) expect(api.where).not.toContain(password);
      } finally {
        await api.close();
      }
    } finally {
      await database.close();
      await drop();
    }
  }, 120_000);
});
