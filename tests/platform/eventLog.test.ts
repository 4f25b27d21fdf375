// @vitest-environment happy-dom
/**
 * The recorder of the app actor's recent history (src/platform/eventLog.ts), watching a small machine shaped like
 * the app (a page, an error, a child actor, a timer): which events it keeps, how many, when it reports an error,
 * and when it loads the web-vitals collector. The reporter is the real one; `fetch` catches what it sends.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, fromPromise, raise, setup } from 'xstate';
import type { ReportBody } from '../../api/types';
import type { ReportsConfig } from '../../src/config';

const mocks = vi.hoisted(() => ({
  idle: [] as (() => void)[],
  startVitals: vi.fn(),
}));

vi.mock('../../src/platform/vitals', () => ({ startVitals: mocks.startVitals }));
// The browser's idle moment is the test's to choose.
vi.mock('../../src/platform/lazyLoad', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/platform/lazyLoad')>()),
  whenIdle: (run: () => void) => {
    mocks.idle.push(run);
    return () => {};
  },
}));

const config: ReportsConfig = {
  enabled: true,
  endpoint: '/api/reports',
  buildId: 'build-of-the-page',
  maxEvents: 50,
  maxPerPage: 10,
  maxBytes: 15 * 1024,
  vitalsSampleRate: 0.5,
};

interface AppError {
  readonly statusCode: number;
  readonly message: string;
}

let loading: { resolve: (route: string) => void; reject: (error: unknown) => void };

/** Shaped like the app machine where the recorder reads it: `current`, `error`, `build`, the `error` tag. */
const appLike = setup({
  types: {
    context: {} as { current: { route: string } | null; error: AppError | null; build: { id: string } },
    events: {} as
      | { type: 'nav.go'; to: string; [field: string]: unknown }
      | { type: 'error.raised'; error: AppError }
      | { type: 'error.screened' }
      | { type: 'page.settled' }
      | { type: 'error.lost' }
      | { type: 'echo' },
  },
  actors: {
    loadPage: fromPromise(
      () =>
        new Promise<string>((resolve, reject) => {
          loading = { resolve, reject };
        }),
    ),
  },
}).createMachine({
  id: 'app',
  context: { current: null, error: null, build: { id: 'build-5' } },
  initial: 'idle',
  on: {
    'error.raised': { target: '.screening', actions: assign({ error: ({ event }) => event.error }) },
    echo: {},
  },
  states: {
    idle: { on: { 'nav.go': 'loading', 'error.lost': 'errorWithoutError' } },
    loading: {
      // Sent to itself later: the machine's own event, which a replay raises again.
      entry: raise({ type: 'echo' }, { delay: 1 }),
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        onDone: { target: 'shown', actions: assign({ current: ({ event }) => ({ route: event.output }) }) },
      },
    },
    shown: { after: { 1000: 'idle' }, on: { 'nav.go': 'loading' } },
    // Errors are first screened (untagged), then shown (tagged), as in the app.
    screening: { on: { 'error.screened': 'errorShown' } },
    errorShown: {
      tags: 'error',
      on: { 'page.settled': { target: 'idle', actions: assign({ error: null }) } },
    },
    // Not a state of the app: a view tagged as an error with no error in the context.
    errorWithoutError: { tags: 'error' },
  },
});

const sent = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 201 }));
const reports = () => sent.mock.calls.map(([, init]) => JSON.parse(String(init.body)) as ReportBody);

/** The module as a fresh page load has it: the reporter not loaded yet, nothing sampled. */
async function loadEventLog() {
  vi.resetModules();
  return import('../../src/platform/eventLog');
}

async function record(options: { config?: ReportsConfig; target?: Window } = {}) {
  const { startEventLog } = await loadEventLog();
  const recorder = startEventLog(options.config ?? config, options.target ?? (new EventTarget() as Window));
  const start = () => createActor(appLike, { inspect: recorder.inspect }).start();
  return { ...recorder, start };
}

const errorOf = (message: string): AppError => ({ statusCode: 500, message });

/** Raises an error and shows it, as the app does after screening it for crawlers. */
function showError(app: ReturnType<typeof createActor<typeof appLike>>, error: AppError) {
  app.send({ type: 'error.raised', error });
  app.send({ type: 'error.screened' });
}

beforeEach(() => {
  sent.mockClear();
  mocks.startVitals.mockClear();
  mocks.idle.length = 0;
  vi.stubGlobal('fetch', sent);
  // Not sampled unless a test says so.
  vi.spyOn(Math, 'random').mockReturnValue(0.99);
  window.history.replaceState(null, '', '/campaign/1?ref=mail');
});

afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  await settleMocks();
  vi.doUnmock('../../src/platform/reporter');
  vi.doMock('../../src/platform/vitals', () => ({ startVitals: mocks.startVitals }));
  // Vitest applies queued mocks at the next import, all at once and in no fixed order: left queued, this one
  // raced with a test's own `failToLoadOnce`, which then saw a working collector (one Stryker dry run in four).
  await import('../../src/platform/vitals');
});

/**
 * Waits until no import is being resolved. Vitest empties its queue of `vi.doMock`s when a resolution in
 * flight ends, including the mocks queued meanwhile, which are then never applied: a test's failing chunk
 * loaded fine (CI, under load, after a test whose import was still resolving).
 */
async function settleMocks() {
  await vi.dynamicImportSettled();
}

/** A chunk that fails to load: its dynamic import rejects, until the next attempt (the module is not cached). */
async function failToLoadOnce(path: '../../src/platform/reporter' | '../../src/platform/vitals') {
  await settleMocks();
  vi.doMock(path, () => {
    vi.doUnmock(path);
    throw new Error('Failed to fetch dynamically imported module');
  });
}

describe('the recorded history', () => {
  it('keeps the events the app received from outside, its children and its timers, not its own', async () => {
    vi.useFakeTimers();
    const { log, start } = await record();
    const app = start();
    app.send({
      type: 'nav.go',
      to: '/campaign/1?email=victim@example.com',
      form: 'kept until a report scrubs it',
    });
    await vi.advanceTimersByTimeAsync(1);
    loading.resolve('campaign');
    await vi.advanceTimersByTimeAsync(1000);
    expect(app.getSnapshot().value).toBe('idle');
    expect(log.events).toEqual([
      { type: 'nav.go', to: '/campaign/1?email=victim@example.com', form: 'kept until a report scrubs it' },
      { type: 'xstate.done.actor.loadPage', output: 'campaign', actorId: 'loadPage' },
      { type: 'xstate.after.1000.app.shown' },
    ]);
    expect(log.dropped).toBe(0);
    // The app's own latest snapshot, not its child's.
    expect(log.snapshot).toBe(app.getSnapshot());
  });

  it('keeps the newest events up to the limit, counting those it let go', async () => {
    const { log, start } = await record({ config: { ...config, maxEvents: 3 } });
    const app = start();
    for (const to of ['/a', '/b', '/c']) app.send({ type: 'page.settled', to } as never);
    expect(log.events.map((event) => event.to)).toEqual(['/a', '/b', '/c']);
    expect(log.dropped).toBe(0);
    for (const to of ['/d', '/e']) app.send({ type: 'page.settled', to } as never);
    expect(log.events.map((event) => event.to)).toEqual(['/c', '/d', '/e']);
    expect(log.dropped).toBe(2);
  });

  it("starts a new history when a new app actor starts (React's strict mode starts one twice)", async () => {
    const { log, start } = await record({ config: { ...config, maxEvents: 1 } });
    const first = start();
    first.send({ type: 'page.settled' });
    first.send({ type: 'error.screened' });
    expect(log.dropped).toBe(1);
    const second = start();
    expect(log.events).toEqual([]);
    expect(log.dropped).toBe(0);
    expect(log.snapshot).toBe(second.getSnapshot());
  });
});

describe('error reports', () => {
  it('reports an error once it is shown, with the history up to then', async () => {
    const { start } = await record();
    const app = start();
    app.send({ type: 'nav.go', to: '/campaign/1' });
    app.send({ type: 'error.raised', error: errorOf('Boom') });
    await vi.dynamicImportSettled();
    // Screened, not shown yet (a crawler would get a real 500): nothing to report.
    expect(sent).not.toHaveBeenCalled();
    app.send({ type: 'error.screened' });
    // What happens after the error is not part of its report, even before the reporter has loaded.
    app.send({ type: 'page.settled' });
    await vi.dynamicImportSettled();
    expect(sent).toHaveBeenCalledTimes(1);
    const [report] = reports();
    expect(report).toMatchObject({
      kind: 'error',
      buildId: 'build-5',
      route: { name: 'campaign', path: '/campaign/1' },
      state: 'errorShown',
      error: { name: 'Error', message: 'Boom', status: 500 },
      events: [{ type: 'nav.go', to: '/campaign/1' }, { type: 'error.raised' }, { type: 'error.screened' }],
    });
  });

  it('reports each error shown once, and a new error again', async () => {
    const { start } = await record();
    const app = start();
    const error = errorOf('Boom');
    showError(app, error);
    // The same error passing through the view again (another snapshot with it) is not a new report.
    app.send({ type: 'echo' });
    await vi.dynamicImportSettled();
    expect(sent).toHaveBeenCalledTimes(1);
    app.send({ type: 'page.settled' });
    showError(app, errorOf('Boom again'));
    await vi.dynamicImportSettled();
    expect(reports().map((report) => report.error?.message)).toEqual(['Boom', 'Boom again']);
  });

  it("keeps one reporter for the page, so the page's limit holds", async () => {
    const { start } = await record({ config: { ...config, maxPerPage: 2 } });
    const app = start();
    for (const message of ['One', 'Two', 'Three']) {
      showError(app, errorOf(message));
      app.send({ type: 'page.settled' });
      await vi.dynamicImportSettled();
    }
    expect(reports().map((report) => report.error?.message)).toEqual(['One', 'Two']);
  });

  it('reports uncaught errors and unhandled rejections of the page', async () => {
    const target = new EventTarget();
    await record({ target: target as Window });
    target.dispatchEvent(Object.assign(new Event('error'), { error: new TypeError('x is undefined') }));
    // A cross-origin script's error has no error object, only words.
    target.dispatchEvent(Object.assign(new Event('error'), { message: 'Script error.' }));
    target.dispatchEvent(
      Object.assign(new Event('unhandledrejection'), { reason: new RangeError('Too far') }),
    );
    await vi.dynamicImportSettled();
    expect(reports().map((report) => report.error)).toEqual([
      { name: 'StartupFailure: TypeError', message: 'x is undefined', status: null },
      { name: 'StartupFailure: string', message: 'Script error.', status: null },
      { name: 'StartupFailure: RangeError', message: 'Too far', status: null },
    ]);
    // Before the app actor started there is no history yet.
    expect(reports().map((report) => [report.events, report.eventsDropped, report.state])).toEqual([
      [[], 0, 'notStarted'],
      [[], 0, 'notStarted'],
      [[], 0, 'notStarted'],
    ]);
  });

  it('names no route for a path outside the route table', async () => {
    window.history.replaceState(null, '', '/no/such/page');
    const target = new EventTarget();
    await record({ target: target as Window });
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('Boom') }));
    await vi.dynamicImportSettled();
    expect(reports().map((report) => report.route)).toEqual([{ name: null, path: '/no/such/page' }]);
  });

  it('reports nothing for a view tagged as an error without an error to describe', async () => {
    // One report a page: an attempt at reporting nothing would use it up.
    const { start } = await record({ config: { ...config, maxPerPage: 1 } });
    const app = start();
    app.send({ type: 'error.lost' });
    expect(app.getSnapshot().hasTag('error')).toBe(true);
    await vi.dynamicImportSettled();
    showError(app, errorOf('Boom'));
    await vi.dynamicImportSettled();
    expect(reports().map((report) => report.error?.message)).toEqual(['Boom']);
  });

  it("listens on the page's window unless told otherwise", async () => {
    const { startEventLog } = await loadEventLog();
    startEventLog(config);
    window.dispatchEvent(
      Object.assign(new Event('unhandledrejection'), { reason: new Error('Lost promise') }),
    );
    await vi.dynamicImportSettled();
    expect(reports().map((report) => report.error?.message)).toEqual(['Lost promise']);
  });

  it('tries loading the reporter again for the next report when its chunk failed', async () => {
    const target = new EventTarget();
    await failToLoadOnce('../../src/platform/reporter');
    await record({ target: target as Window });
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('First') }));
    await vi.dynamicImportSettled();
    expect(sent).not.toHaveBeenCalled();
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('Second') }));
    await vi.dynamicImportSettled();
    expect(reports().map((report) => report.error?.message)).toEqual(['Second']);
  });

  it('records and sends nothing when reports are turned off', async () => {
    vi.mocked(Math.random).mockReturnValue(0);
    const target = new EventTarget();
    const { start } = await record({ config: { ...config, enabled: false }, target: target as Window });
    const app = start();
    showError(app, errorOf('Boom'));
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('Uncaught') }));
    await vi.dynamicImportSettled();
    expect(sent).not.toHaveBeenCalled();
    expect(mocks.idle).toEqual([]);
  });
});

describe('web vitals', () => {
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'globalPrivacyControl');
  });

  it('loads the collector for a sampled view, once the first page is on screen and the browser is idle', async () => {
    vi.mocked(Math.random).mockReturnValue(0.49);
    const { log, start } = await record();
    const app = start();
    app.send({ type: 'nav.go', to: '/campaign/1' });
    expect(mocks.idle).toEqual([]);
    loading.resolve('campaign');
    await vi.waitFor(() => expect(app.getSnapshot().value).toBe('shown'));
    expect(mocks.idle).toHaveLength(1);
    expect(mocks.startVitals).not.toHaveBeenCalled();
    mocks.idle[0]?.();
    await vi.dynamicImportSettled();
    expect(mocks.startVitals).toHaveBeenCalledWith(config, log);
    // Later pages load nothing more.
    app.send({ type: 'nav.go', to: '/campaign/2' });
    loading.resolve('campaign');
    await vi.waitFor(() => expect(app.getSnapshot().value).toBe('shown'));
    expect(mocks.idle).toHaveLength(1);
  });

  it('loads it when an error view is the first thing on screen', async () => {
    vi.mocked(Math.random).mockReturnValue(0);
    const { start } = await record();
    const app = start();
    app.send({ type: 'error.raised', error: errorOf('Boom') });
    expect(mocks.idle).toEqual([]);
    app.send({ type: 'error.screened' });
    expect(mocks.idle).toHaveLength(1);
  });

  it('leaves a view that is not sampled alone', async () => {
    vi.mocked(Math.random).mockReturnValue(0.5);
    const { start } = await record();
    showError(start(), errorOf('Boom'));
    expect(mocks.idle).toEqual([]);
  });

  it('leaves a browser that sends Global Privacy Control alone', async () => {
    vi.mocked(Math.random).mockReturnValue(0);
    Object.defineProperty(navigator, 'globalPrivacyControl', { configurable: true, value: true });
    const { start } = await record();
    showError(start(), errorOf('Boom'));
    expect(mocks.idle).toEqual([]);
  });

  it('costs only this sample when the collector fails to load', async () => {
    vi.mocked(Math.random).mockReturnValue(0);
    await failToLoadOnce('../../src/platform/vitals');
    const { start } = await record();
    showError(start(), errorOf('Boom'));
    mocks.idle[0]?.();
    await vi.dynamicImportSettled();
    expect(mocks.startVitals).not.toHaveBeenCalled();
  });
});
