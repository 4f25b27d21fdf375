// @vitest-environment happy-dom
/**
 * The report sender (src/platform/reporter.ts): what an error report says about the error and where the visitor
 * was, how it stays under the size limit, how it is sent (no cookie, outliving the page), and how a page that
 * keeps failing is kept from flooding the endpoint.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReportBody } from '../../api/types';
import type { ReportsConfig } from '../../src/config';
import { buildReport, createReporter, sendReport } from '../../src/platform/reporter';
import type { EventLogView, ReportableSnapshot, ReportCause } from '../../src/platform/reportTypes';

const snapshot = (overrides: Partial<ReportableSnapshot['context']> = {}): ReportableSnapshot => ({
  value: { navigation: 'idle', errors: 'shown' },
  context: { current: { route: 'campaign' }, error: null, build: { id: 'build-7' }, ...overrides },
  hasTag: (tag) => tag === 'error',
});

const logOf = (view: Partial<EventLogView> = {}): EventLogView => ({
  events: [],
  dropped: 0,
  snapshot: snapshot(),
  boot: null,
  ...view,
});

const options = { buildId: 'build-of-the-page', path: '/campaign/1', now: 1000, maxBytes: 15 * 1024 };
const viewError = (
  error: Partial<{ statusCode: number; statusMessage: string; message: string }>,
): ReportCause => ({
  kind: 'view',
  error: { statusCode: 500, message: 'Boom', ...error },
});
const uncaught = (error: unknown): ReportCause => ({ kind: 'uncaught', error });
const bytes = (report: ReportBody) => new TextEncoder().encode(JSON.stringify(report)).length;

describe('an error report', () => {
  it('says where the visitor was, in which build and state, and when', () => {
    const report = buildReport(
      viewError({}),
      logOf({ boot: { path: '/campaign/1?ref=x#y', title: 'Maple' } }),
      {
        ...options,
        path: '/campaign/1?ref=mail#donate',
        now: 1234.6,
      },
    );
    expect(report).toEqual({
      kind: 'error',
      buildId: 'build-7',
      route: { name: 'campaign', path: '/campaign/1' },
      state: { navigation: 'idle', errors: 'shown' },
      boot: { path: '/campaign/1', title: null },
      time: 1235,
      error: { name: 'Error', message: 'Boom', status: 500 },
      events: [],
      eventsDropped: 0,
    });
  });

  it("names the route by the route table when given one, else by the app's current page", () => {
    const routeOf = vi.fn((path: string) => (path === '/campaign/1' ? 'campaignFromTable' : undefined));
    expect(
      buildReport(viewError({}), logOf(), { ...options, path: '/campaign/1?x=1', routeOf }).route,
    ).toEqual({
      name: 'campaignFromTable',
      path: '/campaign/1',
    });
    expect(routeOf).toHaveBeenCalledWith('/campaign/1');
    expect(buildReport(viewError({}), logOf(), { ...options, path: '/nowhere', routeOf }).route.name).toBe(
      'campaign',
    );
    const noPage = logOf({ snapshot: snapshot({ current: null }) });
    expect(buildReport(viewError({}), noPage, { ...options, routeOf }).route.name).toBe('campaignFromTable');
    expect(buildReport(viewError({}), noPage, options).route.name).toBeNull();
  });

  it("before the app started: the page's build, no state, and the error named a start-up failure", () => {
    const report = buildReport(
      uncaught(new TypeError('x is undefined')),
      logOf({ snapshot: undefined }),
      options,
    );
    expect(report).toMatchObject({
      buildId: 'build-of-the-page',
      route: { name: null, path: '/campaign/1' },
      state: 'notStarted',
      boot: null,
      error: { name: 'StartupFailure: TypeError', message: 'x is undefined', status: null },
    });
  });

  it('names an error view by its status message, or by its status', () => {
    const name = (error: Parameters<typeof viewError>[0]) =>
      buildReport(viewError(error), logOf(), options).error;
    expect(name({ statusCode: 404, message: 'No campaign 9' })).toEqual({
      name: 'Page Not Found',
      message: 'No campaign 9',
      status: 404,
    });
    expect(name({ statusCode: 500 })?.name).toBe('Error');
    expect(name({ statusCode: 404, statusMessage: 'Gone for victim@example.com' })?.name).toBe(
      'Gone for [email]',
    );
    expect(name({ statusCode: 500, message: 'for victim@example.com' })?.message).toBe('for [email]');
  });

  it('describes whatever was thrown: its name, words and an HTTP-like status', () => {
    const error = (thrown: unknown) => buildReport(uncaught(thrown), logOf(), options).error;
    expect(error(Object.assign(new RangeError('Bad victim@example.com'), { statusCode: 503 }))).toEqual({
      name: 'RangeError',
      message: 'Bad [email]',
      status: 503,
    });
    expect(error('plain words')).toEqual({ name: 'string', message: 'plain words', status: null });
    expect(error(42)).toEqual({ name: 'number', message: '', status: null });
    expect(error(null)).toEqual({ name: 'object', message: '', status: null });
    expect(error({ name: 7, message: 8 })).toEqual({ name: 'object', message: '8', status: null });
    expect(error({ name: `Long ${'name '.repeat(60)}` })?.name).toBe(
      `Long ${'name '.repeat(60)}`.slice(0, 200),
    );
    expect(error({ name: 'victim@example.com' })?.name).toBe('[email]');
  });

  it('keeps only a whole status between 100 and 999', () => {
    const status = (statusCode: unknown) =>
      buildReport(uncaught({ statusCode }), logOf(), options).error?.status;
    expect([100, 404, 999].map(status)).toEqual([100, 404, 999]);
    expect([99, 1000, 404.5, '500', Number.NaN].map(status)).toEqual([null, null, null, null, null]);
  });

  it('carries the events scrubbed, in order, and the count the log had dropped', () => {
    const events = [
      { type: 'nav.go', to: '/a?email=victim@example.com', form: 'secret' },
      { type: 'page.changed', visible: false, online: true },
    ];
    const report = buildReport(viewError({}), logOf({ events, dropped: 4 }), options);
    expect(report.events).toEqual([
      { type: 'nav.go', to: '/a?email=' },
      { type: 'page.changed', visible: false, online: true },
    ]);
    expect(report.eventsDropped).toBe(4);
  });

  it('drops the oldest events, and counts them, until the report fits', () => {
    const events = Array.from({ length: 6 }, (_, index) => ({ type: `step.${index}` }));
    const full = buildReport(viewError({}), logOf({ events, dropped: 1 }), options);
    // Exactly at the limit: nothing to drop.
    expect(
      buildReport(viewError({}), logOf({ events, dropped: 1 }), { ...options, maxBytes: bytes(full) }),
    ).toEqual(full);
    const oneOver = buildReport(viewError({}), logOf({ events, dropped: 1 }), {
      ...options,
      maxBytes: bytes(full) - 1,
    });
    expect(oneOver.events.map((event) => event.type)).toEqual([
      'step.1',
      'step.2',
      'step.3',
      'step.4',
      'step.5',
    ]);
    expect(oneOver.eventsDropped).toBe(2);
    // A limit no report meets: every event goes, and the report is still made.
    const none = buildReport(viewError({}), logOf({ events, dropped: 1 }), { ...options, maxBytes: 10 });
    expect(none.events).toEqual([]);
    expect(none.eventsDropped).toBe(7);
    expect(none.error).toEqual(full.error);
  });

  it('counts the size in bytes, as the server does, not in characters', () => {
    const events = [{ type: 'a.ééééééééééééééééééééééééééééééé' }, { type: 'b' }];
    const withBoth = buildReport(viewError({}), logOf({ events }), options);
    const characters = JSON.stringify(withBoth).length;
    const report = buildReport(viewError({}), logOf({ events }), { ...options, maxBytes: characters });
    expect(report.events).toEqual([{ type: 'b' }]);
  });
});

describe('a vitals report', () => {
  it('carries the vitals and no error', () => {
    const vitals = [{ name: 'LCP' as const, value: 2000, rating: 'good' as const }];
    const report = buildReport({ kind: 'vitals', vitals }, logOf(), options);
    expect(report).toMatchObject({ kind: 'vitals', vitals });
    expect(report.vitals).not.toBe(vitals);
    expect(report).not.toHaveProperty('error');
  });
});

describe('sending', () => {
  const report = buildReport(viewError({}), logOf(), options);

  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('posts JSON without cookies, kept alive past the page', () => {
    const send = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 201 }));
    sendReport(report, '/api/reports', send as unknown as typeof fetch);
    expect(send).toHaveBeenCalledWith('/api/reports', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(report),
      keepalive: true,
      credentials: 'omit',
    });
  });

  it('uses the global fetch by default', () => {
    const send = vi.fn(async () => new Response(null, { status: 201 }));
    vi.stubGlobal('fetch', send);
    sendReport(report, '/r');
    expect(send).toHaveBeenCalledWith('/r', expect.objectContaining({ method: 'POST' }));
  });

  it('drops a report that cannot be sent, without an error of its own', async () => {
    const failure = Promise.reject(new TypeError('Failed to fetch'));
    const caught = vi.spyOn(failure, 'catch');
    sendReport(report, '/r', (() => failure) as unknown as typeof fetch);
    expect(caught).toHaveBeenCalledTimes(1);
    const onRejected = caught.mock.calls[0]?.[0];
    expect(onRejected?.(new TypeError('Failed to fetch'))).toBeUndefined();
  });
});

describe('the reporter of a page', () => {
  const config: ReportsConfig = {
    enabled: true,
    endpoint: '/api/reports',
    buildId: 'build-3',
    maxEvents: 50,
    maxPerPage: 2,
    maxBytes: 15 * 1024,
    vitalsSampleRate: 0,
  };
  const sent = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 201 }));
  const bodies = () => sent.mock.calls.map(([, init]) => JSON.parse(String(init.body)) as ReportBody);

  beforeEach(() => {
    sent.mockClear();
    vi.stubGlobal('fetch', sent);
    vi.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z') });
    window.history.replaceState(null, '', '/campaign/2?ref=mail#x');
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends a report of the page the visitor is on, now, to the endpoint', () => {
    const send = createReporter(config, (path) => `route of ${path}`);
    send(uncaught(new Error('Boom')), logOf({ snapshot: undefined }));
    expect(sent).toHaveBeenCalledTimes(1);
    expect(sent.mock.calls[0]?.[0]).toBe('/api/reports');
    expect(bodies()[0]).toMatchObject({
      buildId: 'build-3',
      route: { name: 'route of /campaign/2', path: '/campaign/2' },
      time: Date.parse('2026-03-01T10:00:00Z'),
      error: { name: 'StartupFailure: Error', message: 'Boom' },
    });
  });

  it("without a route table, names the app's current page", () => {
    createReporter(config)(uncaught(new Error('Boom')), logOf());
    expect(bodies()[0]?.route).toEqual({ name: 'campaign', path: '/campaign/2' });
  });

  it('keeps under the size limit of the configuration', () => {
    const events = Array.from({ length: 40 }, (_, index) => ({ type: `step.${index}` }));
    createReporter({ ...config, maxBytes: 600 })(uncaught(new Error('Boom')), logOf({ events }));
    const [body] = bodies();
    expect(JSON.stringify(body).length).toBeLessThanOrEqual(600);
    expect(body?.eventsDropped).toBeGreaterThan(0);
    expect(body?.events.at(-1)).toEqual({ type: 'step.39' });
  });

  it('reports the same error once, however often it arrives', () => {
    const send = createReporter(config);
    const error = new Error('Boom');
    send(uncaught(error), logOf({ snapshot: undefined }));
    send(uncaught(error), logOf());
    expect(sent).toHaveBeenCalledTimes(1);
    send(uncaught(new Error('Boom')), logOf());
    expect(sent).toHaveBeenCalledTimes(2);
  });

  it('reports repeated words each time: only objects are told apart', () => {
    const send = createReporter({ ...config, maxPerPage: 5 });
    send(uncaught('Script error.'), logOf());
    send(uncaught('Script error.'), logOf());
    send(uncaught(undefined), logOf());
    send(uncaught(null), logOf());
    expect(sent).toHaveBeenCalledTimes(4);
  });

  it('sends at most the configured number of reports per page', () => {
    const send = createReporter(config);
    for (let index = 0; index < 4; index += 1) send(uncaught(new Error(`Boom ${index}`)), logOf());
    expect(bodies().map((body) => body.error?.message)).toEqual(['Boom 0', 'Boom 1']);
    // Each page's reporter counts its own.
    createReporter(config)(uncaught(new Error('Other page')), logOf());
    expect(sent).toHaveBeenCalledTimes(3);
  });
});
