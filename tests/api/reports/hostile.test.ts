// @vitest-environment node
// POST /api/reports as a stranger uses it: text no browser sends, nesting that would blow a stack,
// numbers no browser measures, kinds mixed, floods from two processes, and a table someone else wrote to. Every
// answer is a 4xx with a message or a 201, never a 500; what is stored comes back exactly as it was sent.
import fc from 'fast-check';
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { testApiConfig } from '../../../api/config';
import type { SecurityEvent } from '../../../api/logSafe';
import { REPORT_DEFAULTS, type ReportsConfig } from '../../../api/reports';
import type { ReportBody, StoredReport } from '../../../api/types';
import { type ApiClient, backends, storedReports, useApi } from '../../support/apiHarness';
import { sampleReport, sampleVitals } from '../../support/reportFixture';

const NOW = Date.UTC(2026, 0, 1);
const TOKEN = 'a-read-token-of-thirty-two-chars';

/** Nested `depth` levels deep: `{ a: { a: … } }` or `[[…]]`. */
const nested = (depth: number, array = false) =>
  array ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** Every way text can be hostile: controls C0 and C1, NUL, separators, bidi, half a pair. */
const HOSTILE = {
  'an escape sequence': '\u001b[2K\u001b[1AAll good',
  'a C1 control (CSI)': 'x\u009b31m',
  'a NUL': 'x\u0000y',
  'a lone surrogate': 'x\ud800y',
  'a line separator': 'x\u2028//',
  'a paragraph separator': 'x\u2029//',
  'a right-to-left override': 'x\u202eevil',
  'a newline': '/x\nimport',
  'a carriage return': 'x\rimport',
};

describe.each(backends())('hostile reports on %s', (kind) => {
  const errors: unknown[][] = [];
  const warnings: unknown[][] = [];
  const events: SecurityEvent[] = [];
  const {
    database,
    clock,
    open: openApi,
  } = useApi(kind, {
    startAt: NOW,
    log: {
      error: (...args) => errors.push(args),
      warn: (...args) => warnings.push(args),
      security: (event) => events.push(event),
    },
  });
  const open = (reports: Partial<ReportsConfig> = {}) =>
    openApi({ config: { reports: { ...testApiConfig().reports, readToken: TOKEN, ...reports } } });
  const post = (api: ApiClient, payload: unknown, address = '127.0.0.1') =>
    api.app.inject({
      method: 'POST',
      url: '/api/reports',
      remoteAddress: address,
      headers: {
        origin: 'http://localhost',
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/json',
      },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const list = (api: ApiClient, token = TOKEN, address = '127.0.0.1') =>
    api.app.inject({
      method: 'GET',
      url: '/api/reports',
      remoteAddress: address,
      headers: { authorization: `Bearer ${token}` },
    });
  const stored = () => storedReports(database());

  beforeEach(() => {
    errors.length = 0;
    warnings.length = 0;
    events.length = 0;
  });

  const fields: [string, (text: string) => Partial<ReportBody>][] = [
    ['the build id', (text) => ({ buildId: text })],
    ['the route name', (text) => ({ route: { name: text, path: '/campaign/1' } })],
    ['the route path', (text) => ({ route: { name: 'campaign', path: `/${text}` } })],
    ['the boot path', (text) => ({ boot: { path: `/${text}`, title: null } })],
    ['the boot title', (text) => ({ boot: { path: '/', title: text } })],
    ['the error name', (text) => ({ error: { name: text, message: 'm', status: 500 } })],
    ['the error message', (text) => ({ error: { name: 'E', message: text, status: 500 } })],
    ['an event type', (text) => ({ events: [{ type: text }] })],
    ['a state name', (text) => ({ state: { navigation: text } })],
    ['a state region', (text) => ({ state: { [text]: 'idle' } })],
  ];
  const cases = fields.flatMap(([field, place]) =>
    Object.entries(HOSTILE).map(([what, text]) => [field, what, place(text)] as const),
  );

  it.each(cases)('refuses %s holding %s with 400 and a message', async (_field, _what, change) => {
    const api = await open();
    const res = await post(api, sampleReport(change, clock.now));
    expect(res.statusCode).toBe(400);
    expect((res.json() as { message: string }).message).toMatch(/\.$/);
    expect(await stored()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('says which part of the report holds the text, in words', async () => {
    const api = await open();
    const message = async (change: Partial<ReportBody>) =>
      ((await post(api, sampleReport(change, clock.now))).json() as { message: string }).message;
    expect(await message({ error: { name: 'E', message: 'a\u001b[2Kb', status: 500 } })).toBe(
      "The error's message must be plain text: no control, line-separator or bidirectional characters.",
    );
    expect(await message({ events: [{ type: 'page.changed' }, { type: 'x\u202e' }] })).toBe(
      "An event's type must be plain text: no control, line-separator or bidirectional characters.",
    );
    expect(await message({ buildId: 'build-1' })).toBe(
      'The build id must be one the app makes (base-36 time, a dash, 8 hex digits; or "dev").',
    );
    expect(await message({ state: { navigation: { loading: 'x\u0085' } } })).toMatch(/^The state must be/);
    expect(await message({ events: [{ type: 'nav.go', to: 'a\u0000b' }] })).toBe(
      'The report holds text that is not well-formed Unicode or holds a NUL character (at "events.0.to").',
    );
    expect(await message({ events: [{ type: 'nav.go', 'k\ud800': 1 }] })).toBe(
      'The report holds text that is not well-formed Unicode or holds a NUL character (at "events.0.k\ud800").',
    );
  });

  it('takes a build id of the shape the build makes, and "dev"', async () => {
    const api = await open();
    for (const buildId of ['dev', 'mhx3k2a1-0a1b2c3d', 'z-00000000'])
      expect((await post(api, sampleReport({ buildId }, clock.now))).statusCode).toBe(201);
    for (const buildId of [
      '',
      'DEV',
      'mhx3k2a1-0A1B2C3D',
      'mhx3k2a1_0a1b2c3d',
      'mhx3k2a1-0a1b2c3',
      `${'a'.repeat(13)}-00000000`,
    ])
      expect((await post(api, sampleReport({ buildId }, clock.now))).statusCode).toBe(400);
  });

  it.each([
    ['a state nested 2,600 objects deep', { state: 'STATE' }, nested(2_600)],
    [
      'an event payload nested 8,000 arrays deep',
      { events: 'EVENTS' },
      `[{"type":"nav.go","x":${nested(8_000, true)}}]`,
    ],
    ['a body of 17 levels', { state: 'STATE' }, nested(16)],
  ])('refuses %s with 400 before anything recursive reads it', async (_name, marker, inner) => {
    const api = await open();
    const [field] = Object.keys(marker) as [string];
    const text = JSON.stringify(sampleReport({}, clock.now)).replace(
      new RegExp(`"${field}":(\\{[^}]*\\}|\\[[^\\]]*\\])`),
      `"${field}":${inner}`,
    );
    expect(text).toContain(inner);
    const res = await post(api, text);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'The request body nests too deeply (at most 16 levels).' });
    expect(errors).toEqual([]);
  });

  it('takes a state as deep as a machine has, and nesting up to the limit', async () => {
    const api = await open();
    const deep = { navigation: { loading: { page: { retry: 'waiting' } } }, errors: 'none' };
    expect((await post(api, sampleReport({ state: deep }, clock.now))).statusCode).toBe(201);
    // The body is one level, events two, an event three: 13 more levels fit under 16.
    const events = JSON.parse(`[{"type":"nav.go","x":${nested(13, true)}}]`);
    expect((await post(api, sampleReport({ events }, clock.now))).statusCode).toBe(201);
  });

  it.each([
    ['an LCP of an hour', [{ name: 'LCP', value: 3_600_000, rating: 'poor' }]],
    ['a TTFB over 120 s', [{ name: 'TTFB', value: 120_001, rating: 'poor' }]],
    ['an INP over 60 s', [{ name: 'INP', value: 60_001, rating: 'poor' }]],
    ['a CLS over 100', [{ name: 'CLS', value: 100.5, rating: 'poor' }]],
    ['a negative value', [{ name: 'CLS', value: -1, rating: 'good' }]],
  ])('refuses a vitals sample with %s', async (_name, vitals) => {
    const api = await open();
    const res = await post(api, sampleVitals({ vitals: vitals as ReportBody['vitals'] }, clock.now));
    expect(res.statusCode).toBe(400);
    expect(await stored()).toBe(0);
  });

  it('takes vitals at the edges of what a browser measures', async () => {
    const api = await open({ vitalsPerRoute: 10 });
    const vitals = [
      { name: 'LCP', value: 120_000, rating: 'poor' },
      { name: 'TTFB', value: 120_000, rating: 'poor' },
      { name: 'INP', value: 60_000, rating: 'poor' },
      { name: 'CLS', value: 100, rating: 'poor' },
    ] as ReportBody['vitals'];
    expect((await post(api, sampleVitals({ vitals }, clock.now))).statusCode).toBe(201);
    expect(
      (
        await post(
          api,
          sampleVitals({ vitals: [{ name: 'LCP', value: 120_000.5, rating: 'poor' }] }, clock.now),
        )
      ).statusCode,
    ).toBe(400);
  });

  it('refuses a time far from the server clock, and 1e308', async () => {
    const api = await open();
    const day = 86_400_000;
    expect((await post(api, sampleReport({}, clock.now - 7 * day))).statusCode).toBe(201);
    expect((await post(api, sampleReport({}, clock.now + 7 * day))).statusCode).toBe(201);
    const late = await post(api, sampleReport({}, clock.now - 7 * day - 1));
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({
      message: "The report's time is more than 7 days from the server's clock.",
    });
    expect((await post(api, sampleReport({}, clock.now + 8 * day))).statusCode).toBe(400);
    expect(
      (await post(api, JSON.stringify(sampleReport({}, clock.now)).replace(/"time":\d+/, '"time":1e308')))
        .statusCode,
    ).toBe(400);
  });

  it('keeps the kinds apart: vitals only on a vitals report, an error only on an error report', async () => {
    const api = await open();
    const both = await post(api, {
      ...sampleReport({}, clock.now),
      vitals: sampleVitals({}, clock.now).vitals,
    });
    expect(both.statusCode).toBe(400);
    expect(both.json()).toEqual({ message: 'Only a vitals report carries measurements ("vitals").' });
    const vitalsWithError = await post(api, {
      ...sampleVitals({}, clock.now),
      error: sampleReport({}, clock.now).error,
    });
    expect(vitalsWithError.statusCode).toBe(400);
    expect(vitalsWithError.json()).toEqual({ message: 'Only an error report carries an error ("error").' });
    expect(await stored()).toBe(0);
  });

  it('answers arbitrary JSON and text in a report with 201 or a 4xx, never 500', {
    timeout: 180_000,
  }, async () => {
    const api = await open({ perAddress: 100_000, vitalsPerRoute: 100_000 });
    // Any UTF-16 (lone surrogates included), or one of the named attacks, or plain words.
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom(...Object.values(HOSTILE)),
      fc.constantFrom('dev', 'idle', 'page.changed', 'mhx3k2a1-0a1b2c3d'),
    );
    const json = fc.jsonValue({ maxDepth: 4 }).chain((value) =>
      fc.oneof(
        fc.constant(value),
        text.map((t) => ({ [t]: value })),
      ),
    );
    // One field at a time, the others as the reporter sends them, so each field is reached past validation.
    const field = fc.oneof(
      fc.record({ buildId: text }),
      fc.record({
        route: fc.oneof(json, fc.record({ name: fc.option(text), path: text.map((t) => `/${t}`) })),
      }),
      fc.record({ state: fc.oneof(text, json, fc.dictionary(text, fc.oneof(text, json), { maxKeys: 3 })) }),
      fc.record({
        events: fc.array(
          fc.oneof(json, fc.record({ type: text }), fc.dictionary(text, json, { maxKeys: 3 })),
          {
            maxLength: 4,
          },
        ),
      }),
      fc.record({
        error: fc.oneof(json, fc.record({ name: text, message: text, status: fc.option(fc.integer()) })),
      }),
      fc.record({
        boot: fc.oneof(json, fc.record({ path: text.map((t) => `/${t}`), title: fc.option(text) })),
      }),
      fc.record({ time: fc.oneof(fc.constant(clock.now), fc.double(), fc.integer()) }),
      fc.record({ kind: fc.oneof(text, fc.constant('vitals')), vitals: json }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(field, { minLength: 1, maxLength: 3 }), async (changes) => {
        const res = await post(api, Object.assign(sampleReport({}, clock.now), ...changes));
        expect([201, 400, 413, 415, 429]).toContain(res.statusCode);
      }),
      { numRuns: 120 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (raw) => {
        const res = await post(api, raw);
        expect([201, 400, 413, 415, 429]).toContain(res.statusCode);
      }),
      { numRuns: 50 },
    );
    expect(errors).toEqual([]);
  });

  it('lists what was stored exactly as the browser sent it: no key renamed', async () => {
    const api = await open();
    const report = sampleReport(
      {
        state: { some_region: 'idle', navigation: { still_loading: 'x' } },
        events: [
          { type: 'xstate.error.actor.loadPage', error: { $error: 'm', status_code: 500, kind: 'http' } },
        ],
      },
      clock.now,
    );
    const { id } = (await post(api, report)).json() as { id: string };
    const res = await list(api);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { reports: StoredReport[] }).reports).toEqual([
      { ...report, id, receivedAt: new Date(clock.now).toISOString() },
    ]);
  });

  it('answers the listing with 200 when a row in the table holds a report nested 2,600 deep', async () => {
    const api = await open();
    const { id } = (await post(api, sampleReport({}, clock.now))).json() as { id: string };
    const deep = JSON.stringify(sampleReport({}, clock.now)).replace(
      /"state":\{[^}]*\}/,
      `"state":${nested(2_600)}`,
    );
    await sql`insert into reports (id, received_at, kind, build_id, path, body)
      values ('planted', ${new Date(clock.now + 1)}, 'error', 'dev', '/', ${deep}::jsonb)`.execute(
      database().db,
    );
    const res = await list(api);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { reports: StoredReport[] }).reports.map((report) => report.id)).toEqual([id]);
    expect(warnings).toEqual([['[demo-api] report planted skipped: its stored body is not a report.']]);
  });

  it('skips a row that parses but is not a report in shape, and lists one with text no intake takes', async () => {
    const api = await open();
    const { id } = (await post(api, sampleReport({}, clock.now))).json() as { id: string };
    const plant = (plantedId: string, body: unknown, at: number) =>
      sql`insert into reports (id, received_at, kind, build_id, path, body)
        values (${plantedId}, ${new Date(clock.now + at)}, 'error', 'dev', '/', ${JSON.stringify(body)}::jsonb)`.execute(
        database().db,
      );
    // Written to the table by something other than the API: the readers (npm run reports, npm run replay) would
    // meet a missing route, a count that is text, vitals that are not a list, or no report at all.
    await plant('no-route', { ...sampleReport({}, clock.now), route: null }, 1);
    await plant('text-count', { ...sampleReport({}, clock.now), eventsDropped: '\r5' }, 2);
    await plant('vitals-not-a-list', { ...sampleVitals({}, clock.now), vitals: 1 }, 3);
    await plant('not-a-report', { vitals: 1 }, 4);
    // The right shape with text and sizes the intake refuses: listed as stored, for the readers to show escaped.
    const odd = sampleReport(
      {
        buildId: `\u001b[2K${'x'.repeat(100)}`,
        error: { name: 'E\u202e', message: 'm\r\n', status: 1 },
        events: Array.from({ length: 60 }, () => ({ type: '' })),
        eventsDropped: 2_000_000,
        state: Object.fromEntries(Array.from({ length: 17 }, (_, region) => [`r${region}`, 'idle'])),
      },
      clock.now,
    );
    await plant('odd-text', odd, 5);
    const noSamples = sampleVitals({ vitals: [] }, clock.now);
    await plant('no-samples', noSamples, 6);
    const res = await list(api);
    expect(res.statusCode).toBe(200);
    const { reports } = res.json() as { reports: StoredReport[] };
    expect(reports.map((report) => report.id)).toEqual(['no-samples', 'odd-text', id]);
    expect(reports[1]).toEqual({ ...odd, id: 'odd-text', receivedAt: new Date(clock.now + 5).toISOString() });
    expect(warnings).toEqual(
      ['not-a-report', 'vitals-not-a-list', 'text-count', 'no-route'].map((planted) => [
        `[demo-api] report ${planted} skipped: its stored body is not a report.`,
      ]),
    );
  });

  it('keeps the table at maxCount whatever arrives between prunings', async () => {
    const api = await open({ maxCount: 5, perAddress: 1_000 });
    for (let i = 0; i < 12; i += 1) {
      clock.now += 1;
      expect((await post(api, sampleReport({}, clock.now), `192.0.2.${i}`)).statusCode).toBe(201);
    }
    expect(await stored()).toBe(5);
  });

  it('shares the per-address limit between two processes on one database', async () => {
    const first = await open({ perAddress: 3 });
    const second = await open({ perAddress: 3 });
    const statuses = [];
    for (const api of [first, second, first, second])
      statuses.push((await post(api, sampleReport({}, clock.now))).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await post(second, sampleReport({}, clock.now), '192.0.2.44')).statusCode).toBe(201);
  });

  it('counts one IPv6 client by its /64, and an IPv4-mapped address as its IPv4 address', async () => {
    const api = await open({ perAddress: 2 });
    expect((await post(api, sampleReport({}, clock.now), '2001:db8:1:2::a')).statusCode).toBe(201);
    expect(
      (await post(api, sampleReport({}, clock.now), '2001:db8:1:2:ffff:ffff:ffff:ffff')).statusCode,
    ).toBe(201);
    expect((await post(api, sampleReport({}, clock.now), '2001:db8:1:2::b')).statusCode).toBe(429);
    expect((await post(api, sampleReport({}, clock.now), '2001:db8:1:3::a')).statusCode).toBe(201);
    expect((await post(api, sampleReport({}, clock.now), '::ffff:192.0.2.200')).statusCode).toBe(201);
    expect((await post(api, sampleReport({}, clock.now), '192.0.2.200')).statusCode).toBe(201);
    expect((await post(api, sampleReport({}, clock.now), '::ffff:192.0.2.200')).statusCode).toBe(429);
    // One security event per refusal, naming the client as the limit counts it.
    expect(events).toEqual([
      { event: 'rate-limited', address: '2001:db8:1:2::/64', limit: 'reports' },
      { event: 'rate-limited', address: '192.0.2.200', limit: 'reports' },
    ]);
  });

  it('takes a few vitals samples per address and route per window: one address cannot set the p75', async () => {
    const api = await open({ vitalsPerRoute: 3, vitalsWindowSeconds: 600 });
    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await post(api, sampleVitals({}, clock.now))).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    expect(events).toEqual(Array(2).fill({ event: 'rate-limited', address: '127.0.0.1', limit: 'vitals' }));
    const otherRoute = sampleVitals({ route: { name: 'index', path: '/' } }, clock.now);
    expect((await post(api, otherRoute)).statusCode).toBe(201);
    // Error reports are not vitals: they keep their own budget.
    expect((await post(api, sampleReport({}, clock.now))).statusCode).toBe(201);
  });

  it('limits wrong read tokens per address, and then refuses even the right one from there', async () => {
    const api = await open();
    for (let i = 0; i < REPORT_DEFAULTS.tokenGuesses; i += 1)
      expect((await list(api, `guess-${i}-`.padEnd(32, 'x'))).statusCode).toBe(401);
    const refused = await list(api);
    expect(refused.statusCode).toBe(429);
    // The rest of the window the first wrong token opened (15 minutes), in whole seconds: moments have passed.
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(REPORT_DEFAULTS.tokenWindowSeconds - 60);
    expect(retryAfter).toBeLessThanOrEqual(REPORT_DEFAULTS.tokenWindowSeconds);
    expect((await list(api, TOKEN, '192.0.2.80')).statusCode).toBe(200);
    // Each wrong token and the refusal after them is an event naming the token, never holding what was sent.
    expect(events).toEqual([
      ...Array(REPORT_DEFAULTS.tokenGuesses).fill({
        event: 'token.refused',
        address: '127.0.0.1',
        token: 'reports',
      }),
      { event: 'rate-limited', address: '127.0.0.1', limit: 'reports-token' },
    ]);
    expect(JSON.stringify(events)).not.toMatch(/guess|read-token/);
  });
});
