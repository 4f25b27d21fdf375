// @vitest-environment node
// The edges of the report routes (api/routes/reports.ts) that tests/api/reports/routes.test.ts leaves open: the
// wait a flooding address is told, the read token's scheme, the listing's query refused when malformed, its cap,
// and one report picked out of several by its id.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testApiConfig } from '../../../api/config';
import type { ReportsConfig } from '../../../api/reports';
import type { ReportBody, StoredReport } from '../../../api/types';
import { type ApiClient, useApi } from '../../support/apiHarness';
import { sampleReport } from '../../support/reportFixture';

const TOKEN = 'a-read-token-of-thirty-two-chars';
const ID_MESSAGE = '"id" must be a report id: letters, digits, "-" and "_" only.';

const build = (n: number) => `mhx3k2a${n}-0a1b2c3d`;
const report = (buildId: string) =>
  sampleReport({ buildId, route: { name: 'index', path: '/' }, state: 'settled', events: [] });

describe('report routes, their edges', () => {
  const { clock, database, open: openApi } = useApi('pglite', { startAt: Date.UTC(2026, 0, 1) });
  const open = (reports: Partial<ReportsConfig> = {}) =>
    openApi({ config: { reports: { ...testApiConfig().reports, readToken: TOKEN, ...reports } } });
  const post = (api: ApiClient, body: ReportBody) =>
    api.request({
      method: 'POST',
      url: '/api/reports',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const list = (api: ApiClient, query: string, authorization = `Bearer ${TOKEN}`) =>
    api.request({ method: 'GET', url: `/api/reports${query}`, headers: { authorization } });

  it('tells a flooding address to wait out the rest of the window, in whole seconds', async () => {
    const api = await open({ perAddress: 1, windowSeconds: 90 });
    expect((await post(api, report(build(1)))).statusCode).toBe(201);
    const refused = await post(api, report(build(1)));
    expect(refused.statusCode).toBe(429);
    // Moments into a 90 s window: 90 s to wait, rounded up.
    expect(refused.headers['retry-after']).toBe('90');
    expect(refused.json()).toEqual({ message: 'Too many reports from this address; try again in 90 s.' });
  });

  it('picks one report out of several by its id', async () => {
    const api = await open();
    const ids: string[] = [];
    for (const n of [1, 2, 3]) {
      clock.now += 1000;
      ids.push(((await post(api, report(build(n)))).json() as { id: string }).id);
    }
    const res = await list(api, `?id=${ids[1]}`);
    expect(res.statusCode).toBe(200);
    const { reports } = res.json() as { reports: StoredReport[] };
    expect(reports.map((stored) => [stored.id, stored.buildId])).toEqual([[ids[1], build(2)]]);
  });

  it('lists no more than its own cap, even when an instance with a larger one has stored more', async () => {
    // Two instances on one database during a rolling change of REPORTS_MAX_COUNT: the new one keeps 2.
    const small = await open({ maxCount: 2 });
    const large = await open({ maxCount: 10 });
    for (const n of [1, 2, 3, 4]) {
      clock.now += 1000;
      expect((await post(large, report(build(n)))).statusCode).toBe(201);
    }
    const res = await list(small, '?limit=10');
    expect(res.statusCode).toBe(200);
    const { reports } = res.json() as { reports: StoredReport[] };
    expect(reports.map((stored) => stored.buildId)).toEqual([build(4), build(3)]);
  });

  it('answers a wrong token whose guess cannot be counted with an error, not a 401 that counted nothing', async () => {
    const api = await open();
    const db = database().db;
    await sql`alter table rate_limits add constraint refuse_token_counts check (key not like 'token:%')`.execute(
      db,
    );
    try {
      expect((await list(api, '', 'Bearer a-wrong-token-of-thirty-two-chars')).statusCode).toBe(500);
    } finally {
      await sql`alter table rate_limits drop constraint refuse_token_counts`.execute(db);
    }
  });

  it('wants the token after the Bearer scheme, not before it', async () => {
    const api = await open();
    expect((await list(api, '', `${TOKEN}Bearer `)).statusCode).toBe(401);
    expect((await list(api, '', `Bearer ${TOKEN}`)).statusCode).toBe(200);
  });

  it.each([
    ['a limit of 0', '?limit=0', '"limit" is not valid.'],
    ['a limit that is not a number', '?limit=ten', '"limit" is not valid.'],
    ['a limit of six digits', '?limit=100000', '"limit" is not valid.'],
    ['an id longer than any report’s', `?id=${'x'.repeat(33)}`, '"id" must be at most 32 characters.'],
    // PostgreSQL refuses a NUL in a query parameter: it must not get that far (it answered 500).
    ['an id with a NUL', '?id=%00', ID_MESSAGE],
    ['an id with a character no report id has', '?id=a%2Fb', ID_MESSAGE],
    ['an empty id', '?id=', ID_MESSAGE],
    ['an unknown parameter', '?kind=error', '"kind" is not a field of this request.'],
  ])('refuses %s with 400 and says why', async (_name, query, message) => {
    const api = await open();
    const res = await list(api, query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message });
  });
});
