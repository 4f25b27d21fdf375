// @vitest-environment node
// POST /api/reports: what is stored, and every kind of hostile report refused with a clear answer
// (oversize, wrong type, cross-origin, flood); retention by count and age; the token-only listing.
import { describe, expect, it } from 'vitest';
import { readApiConfig, testApiConfig } from '../../../api/config';
import { REPORT_DEFAULTS, type ReportsConfig } from '../../../api/reports';
import type { ReportBody, StoredReport } from '../../../api/types';
import { type ApiClient, backends, storedReports, useApi } from '../../support/apiHarness';
import { BUILD_ID, sampleReport, sampleVitals } from '../../support/reportFixture';

const DAY = 86_400_000;
const READ_TOKEN = 'a-read-token-of-thirty-two-chars';

describe.each(backends())('reports on %s', (kind) => {
  const { database, clock, open: openApi } = useApi(kind, { startAt: Date.UTC(2026, 0, 1) });
  const open = (reports: Partial<ReportsConfig> = {}) =>
    openApi({ config: { reports: { ...testApiConfig().reports, ...reports } } });
  const post = (api: ApiClient, payload: unknown, headers: Record<string, string | undefined> = {}) =>
    api.request({
      method: 'POST',
      url: '/api/reports',
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const storedCount = () => storedReports(database());

  it('stores an error report with its events, and keeps no address or cookie', async () => {
    const api = await open();
    const res = await post(api, sampleReport(), { cookie: 'sid=abc', 'x-forwarded-for': '203.0.113.9' });
    expect(res.statusCode).toBe(201);
    const { id } = res.json() as { id: string };
    const row = await database()
      .db.selectFrom('reports')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      kind: 'error',
      buildId: BUILD_ID,
      routeName: 'campaign',
      path: '/campaign/1',
      errorName: 'ApiError',
      errorMessage: 'The demo API failed unexpectedly.',
      errorStatus: 500,
    });
    expect(row.body).toEqual(sampleReport());
    const everything = JSON.stringify(row);
    expect(everything).not.toContain('127.0.0.1');
    expect(everything).not.toContain('203.0.113.9');
    expect(everything).not.toContain('sid');
  });

  it('stores a vitals report', async () => {
    const api = await open();
    const res = await post(api, sampleVitals());
    expect(res.statusCode).toBe(201);
    expect(await storedCount()).toBe(1);
  });

  it(`refuses a body over ${REPORT_DEFAULTS.bodyLimitBytes / 1024} KiB with 413`, async () => {
    const api = await open();
    const res = await post(
      api,
      sampleReport({ error: { name: 'E', message: 'x'.repeat(17_000), status: 500 } }),
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'The request body must be at most 16 KiB.' });
    expect(await storedCount()).toBe(0);
  });

  it.each([
    [
      'a string for the status',
      { error: { name: 'E', message: 'm', status: '500' } },
      '"error.status" must be of type integer,null.',
    ],
    ['an unknown kind', { kind: 'crash' }, '"kind" is not valid.'],
    ['an empty build id', { buildId: '' }, '"buildId" must not be empty.'],
    ['a number for the build id', { buildId: 5 }, '"buildId" must be text.'],
    [
      'a path with a query string',
      { route: { name: 'signIn', path: '/sign-in?token=secret' } },
      'The route path must be a path starting with / with no query string or fragment, and must be plain text: no control, line-separator or bidirectional characters.',
    ],
    [
      'too many events',
      { events: Array.from({ length: 51 }, () => ({ type: 'page.changed' })) },
      'A report holds at most 50 events.',
    ],
    ['an event without a type', { events: [{ to: '/' }] }, '"type" is required.'],
    ['an unknown field', { ip: '1.2.3.4' }, '"ip" is not a field of this request.'],
    [
      'an error report without its error',
      { error: undefined },
      'An error report must say what the error was ("error").',
    ],
    [
      'a vitals report without vitals',
      { kind: 'vitals', error: undefined },
      'A vitals report must hold at least one measurement ("vitals").',
    ],
  ])('refuses %s with 400 and says why', async (_name, change, message) => {
    const api = await open();
    const res = await post(api, { ...sampleReport(), ...change });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message });
    expect(await storedCount()).toBe(0);
  });

  it('refuses a body that is not JSON (415) and JSON that is not an object (400)', async () => {
    const api = await open();
    const form = await post(api, 'kind=error', { 'content-type': 'text/plain' });
    expect(form.statusCode).toBe(415);
    const list = await post(api, '[]');
    expect(list.statusCode).toBe(400);
    expect(list.json()).toEqual({ message: 'The request body must be a JSON object.' });
  });

  it('refuses a report from another site with 403', async () => {
    const api = await open();
    for (const headers of [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: undefined, 'sec-fetch-site': undefined },
    ]) {
      const res = await post(api, sampleReport(), headers);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({
        message: 'This request must come from the app itself (cross-origin requests are refused).',
      });
    }
    expect(await storedCount()).toBe(0);
  });

  it('answers a flood from one address with 429 and Retry-After, and stores only the allowed ones', async () => {
    const api = await open({ perAddress: 3, windowSeconds: 60 });
    const statuses: number[] = [];
    let refused: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await post(api, sampleReport());
      statuses.push(res.statusCode);
      if (res.statusCode === 429) refused = res;
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused?.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(refused?.json().message).toMatch(/^Too many reports from this address; try again in \d+ s\.$/);
    expect(await storedCount()).toBe(3);
    // Another address is not held back by the first.
    const other = await post(api, sampleReport(), {}).then(() =>
      api.app.inject({
        method: 'POST',
        url: '/api/reports',
        remoteAddress: '192.0.2.7',
        headers: {
          origin: 'http://localhost',
          'sec-fetch-site': 'same-origin',
          'content-type': 'application/json',
        },
        payload: JSON.stringify(sampleReport()),
      }),
    );
    expect(other.statusCode).toBe(201);
  });

  it('keeps at most maxCount reports at every insert, the newest', async () => {
    const api = await open({ maxCount: 3, perAddress: 100 });
    const start = clock.now;
    for (let day = 0; day < 6; day++) {
      clock.now = start + day * DAY;
      expect((await post(api, sampleReport({}, clock.now))).statusCode).toBe(201);
      expect(await storedCount()).toBe(Math.min(day + 1, 3));
    }
    const left = await database().db.selectFrom('reports').select('body').orderBy('receivedAt').execute();
    expect(left.map((row) => (row.body as ReportBody).time)).toEqual(
      [3, 4, 5].map((day) => start + day * DAY),
    );
  });

  it('deletes reports older than maxAgeDays and beyond maxCount at each pruning', async () => {
    const api = await open({ perAddress: 100 });
    const start = clock.now;
    for (let day = 0; day < 6; day++) {
      clock.now = start + day * DAY;
      expect((await post(api, sampleReport({}, clock.now))).statusCode).toBe(201);
    }
    clock.now = start + 9 * DAY;
    const { pruneReports } = await import('../../../api/reports');
    const removed = await pruneReports(database().db, { maxCount: 3, maxAgeDays: 7 }, () => clock.now);
    // Days 0 and 1 are past seven days; of days 2-5 the newest three stay.
    expect(removed).toBe(3);
    const left = await database().db.selectFrom('reports').select('body').orderBy('receivedAt').execute();
    expect(left.map((row) => (row.body as ReportBody).time)).toEqual(
      [3, 4, 5].map((day) => start + day * DAY),
    );
  });

  it('prunes reports with the sessions when the API starts', async () => {
    const first = await open();
    await post(first, sampleReport());
    await post(first, sampleReport());
    expect(await storedCount()).toBe(2);
    await open({ maxCount: 1 });
    expect(await storedCount()).toBe(1);
  });

  it('lists reports only with the read token, and only when one is configured', async () => {
    const closed = await open();
    const noRoute = await closed.request({ method: 'GET', url: '/api/reports' });
    expect(noRoute.statusCode).toBe(405);

    const api = await open({ readToken: READ_TOKEN });
    const { id } = (await post(api, sampleReport())).json() as { id: string };
    const anonymous = await api.request({ method: 'GET', url: '/api/reports' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect(anonymous.json()).toEqual({
      message: 'Reading reports needs the server’s REPORTS_TOKEN as a bearer token.',
    });
    const wrong = await api.request({
      method: 'GET',
      url: '/api/reports',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    const res = await api.request({
      method: 'GET',
      url: `/api/reports?id=${id}`,
      headers: { authorization: `Bearer ${READ_TOKEN}` },
    });
    expect(res.statusCode).toBe(200);
    const { reports } = res.json() as { reports: StoredReport[] };
    expect(reports).toEqual([{ ...sampleReport(), id, receivedAt: new Date(clock.now).toISOString() }]);

    // Without an id: every report, the newest first; the scheme's name in any case.
    clock.now += 1000;
    const second = (await post(api, sampleReport({ buildId: 'mhx3k2a2-0a1b2c3d' }, clock.now))).json() as {
      id: string;
    };
    const all = await api.request({
      method: 'GET',
      url: '/api/reports',
      headers: { authorization: `bearer  ${READ_TOKEN}` },
    });
    expect(all.statusCode).toBe(200);
    expect((all.json() as { reports: StoredReport[] }).reports.map((report) => report.id)).toEqual([
      second.id,
      id,
    ]);
    const limited = await api.request({
      method: 'GET',
      url: '/api/reports?limit=1',
      headers: { authorization: `Bearer ${READ_TOKEN}` },
    });
    expect((limited.json() as { reports: StoredReport[] }).reports.map((report) => report.id)).toEqual([
      second.id,
    ]);
  });
});

describe('report settings', () => {
  it('reads retention and limits from the environment, with defaults', () => {
    expect(readApiConfig({}).reports).toEqual({
      maxCount: 10_000,
      maxAgeDays: 30,
      perAddress: 30,
      windowSeconds: 60,
      vitalsPerRoute: 3,
      vitalsWindowSeconds: 600,
      bodyLimitBytes: 16 * 1024,
      readToken: null,
    });
    expect(
      readApiConfig({ REPORTS_MAX_COUNT: '50', REPORTS_MAX_AGE_DAYS: '2', REPORTS_TOKEN: READ_TOKEN })
        .reports,
    ).toMatchObject({ maxCount: 50, maxAgeDays: 2, readToken: READ_TOKEN });
    expect(() => readApiConfig({ REPORTS_TOKEN: ` ${READ_TOKEN} ` })).toThrow(
      'REPORTS_TOKEN has blank space around it: remove it (a token is compared exactly).',
    );
    expect(
      readApiConfig({
        REPORTS_PER_ADDRESS: '5',
        REPORTS_WINDOW_SECONDS: '120',
        REPORTS_VITALS_PER_ROUTE: '2',
        REPORTS_VITALS_WINDOW_SECONDS: '60',
      }).reports,
    ).toMatchObject({ perAddress: 5, windowSeconds: 120, vitalsPerRoute: 2, vitalsWindowSeconds: 60 });
    expect(readApiConfig({ REPORTS_TOKEN: '   ' }).reports.readToken).toBeNull();
    expect(() => readApiConfig({ REPORTS_MAX_COUNT: 'lots' })).toThrow(
      'REPORTS_MAX_COUNT="lots" is not valid: expected a whole number of at least 1.',
    );
  });

  it('refuses a read token shorter than 32 characters, so the server does not start with a guessable one', () => {
    expect(() => readApiConfig({ REPORTS_TOKEN: 't0k' })).toThrow(
      'REPORTS_TOKEN is too short: 3 characters, at least 32 are needed (`openssl rand -base64 32` makes one).',
    );
    expect(readApiConfig({ REPORTS_TOKEN: 'x'.repeat(32) }).reports.readToken).toBe('x'.repeat(32));
  });
});
