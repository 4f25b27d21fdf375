// @vitest-environment node
/**
 * The report scrubber: secrets planted in every field of every event type the app actor can receive
 * (its AppEvent union, and a done and an error event for every actor it invokes) never come out of it.
 */
import fc from 'fast-check';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { matchRoute } from '../../core/routes';
import { type AppEvent, appMachine } from '../../machines/app/app.machine';
import { buildReport } from '../../src/platform/reporter';
import type * as ReportScrub from '../../src/platform/reportScrub';

let barePath: typeof ReportScrub.barePath;
let EVENT_ALLOW_LIST: typeof ReportScrub.EVENT_ALLOW_LIST;
let scrubEvent: typeof ReportScrub.scrubEvent;
let scrubPath: typeof ReportScrub.scrubPath;
let scrubText: typeof ReportScrub.scrubText;

// Loaded afresh inside each test. The scrubber is a lazy chunk that other tests (the replay's) load inside a
// test, so Stryker counts its module-level code (the allow-list, the patterns, the claims) as covered by those
// tests alone and, with `ignoreStatic`, runs only them on its mutants: loaded here too, these tests run as well.
beforeEach(async () => {
  vi.resetModules();
  ({ barePath, EVENT_ALLOW_LIST, scrubEvent, scrubPath, scrubText } = await import(
    '../../src/platform/reportScrub'
  ));
});

const EMAIL = 'victim.person@example.com';
const PASSWORD = 'hunter2-Correct-Horse';
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ2aWN0aW0ifQ.c2lnbmF0dXJlLXNlY3JldA';
const RESET = 'Zx81kq0PLmN4vB7cR2tY9wE3';
const FORM_VALUE = 'my-private-display-name';
const SECRETS = [EMAIL, PASSWORD, TOKEN, RESET, FORM_VALUE, 'victim.person'];

const PLANTED_PATH = `/sign-in?redirect=%2Fprofile&email=${encodeURIComponent(EMAIL)}&token=${RESET}#password=${PASSWORD}`;
const PLANTED_MESSAGE = `Failed for ${EMAIL} at https://example.com/reset?token=${RESET} (Bearer ${TOKEN}, password: ${PASSWORD})`;

/** Every field name an event could carry, each holding something that must not leave. */
function plantedFields(): Record<string, unknown> {
  const form = { email: EMAIL, password: PASSWORD, displayName: FORM_VALUE, token: TOKEN };
  const error = Object.assign(new Error(PLANTED_MESSAGE), {
    name: `Error ${EMAIL}`,
    statusCode: 500,
    kind: 'chunk',
    statusMessage: `Bad ${TOKEN}`,
    status: 502,
    fatal: true,
    path: PLANTED_PATH,
    body: form,
    request: { headers: { authorization: `Bearer ${TOKEN}`, cookie: `sid=${RESET}` } },
  });
  return {
    to: PLANTED_PATH,
    replace: true,
    visible: true,
    online: false,
    signedIn: true,
    error,
    output: {
      data: { user: form, campaign: { description: FORM_VALUE } },
      title: `Profile of ${EMAIL}`,
      fromPayload: false,
      id: 'build-2',
      timestamp: 1,
      rules: {},
      prerendered: [`/campaign/${RESET}`],
      user: form,
    },
    ...form,
    form,
    values: [FORM_VALUE, PASSWORD],
    path: PLANTED_PATH,
    url: `https://example.com${PLANTED_PATH}`,
  };
}

/** Exhaustive by type: a new AppEvent fails to compile until it is listed (and so tested) here. */
const APP_EVENT_TYPES: Record<AppEvent['type'], true> = {
  'nav.go': true,
  'nav.popped': true,
  'page.changed': true,
  'page.restored': true,
  'session.changed': true,
  'error.raised': true,
  'page.settled': true,
  'manifest.needed': true,
  'manifest.settled': true,
};

function invokeIds(node: AnyStateNode): string[] {
  const own = node.invoke.map((invoke) => invoke.id);
  return [...own, ...Object.values(node.states).flatMap(invokeIds)];
}

const INVOKED = [...new Set(invokeIds(appMachine.root))];
const ALL_TYPES = [
  ...Object.keys(APP_EVENT_TYPES),
  ...INVOKED.flatMap((id) => [`xstate.done.actor.${id}`, `xstate.error.actor.${id}`]),
  'xstate.after.slowNavigation.app.navigation.loading.quick',
  'something.unknown',
];

function leaks(value: unknown): string[] {
  const text = JSON.stringify(value);
  const decoded = decodeURIComponent(text);
  return SECRETS.filter((secret) => text.includes(secret) || decoded.includes(secret));
}

describe('report scrubber', () => {
  it('knows every actor the app invokes', () => {
    expect(INVOKED).toEqual(
      expect.arrayContaining(['loadPage', 'retryPage', 'detectCrawler', 'fetchManifest', 'checkForUpdate']),
    );
    for (const type of Object.keys(APP_EVENT_TYPES)) expect(EVENT_ALLOW_LIST, type).toHaveProperty([type]);
  });

  it.each(ALL_TYPES)('lets no planted secret out of %s', (type) => {
    const scrubbed = scrubEvent({ type, ...plantedFields() });
    expect(scrubbed.type).toBe(type);
    expect(leaks(scrubbed)).toEqual([]);
  });

  it('keeps what a replay needs', () => {
    expect(scrubEvent({ type: 'nav.go', to: PLANTED_PATH, replace: true, ...plantedFields() })).toEqual({
      type: 'nav.go',
      to: '/sign-in?redirect=&email=&token=#',
      replace: true,
    });
    expect(scrubEvent({ type: 'page.changed', visible: false, online: true })).toEqual({
      type: 'page.changed',
      visible: false,
      online: true,
    });
    const failed = scrubEvent({ type: 'xstate.error.actor.loadPage', ...plantedFields() });
    expect(failed).toMatchObject({ error: { kind: 'chunk', statusCode: 500 } });
    expect(scrubEvent({ type: 'xstate.done.actor.claimChunkReload', output: 'granted' })).toEqual({
      type: 'xstate.done.actor.claimChunkReload',
      output: 'granted',
    });
    expect(
      scrubEvent({ type: 'xstate.done.actor.loadPage', output: { data: 1, fromPayload: true } }),
    ).toEqual({
      type: 'xstate.done.actor.loadPage',
      output: { data: null, fromPayload: true },
    });
  });

  it('never passes a field it does not know, whatever it is called', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ALL_TYPES),
        fc
          .string({ minLength: 1, maxLength: 12 })
          .filter((key) => !['type', 'to', 'error', 'output'].includes(key)),
        (type, key) => {
          const scrubbed = scrubEvent({ type, [key]: `${EMAIL} ${TOKEN}` } as { type: string });
          expect(leaks(scrubbed)).toEqual([]);
        },
      ),
    );
  });

  it('cuts query strings and fragments from paths and messages', () => {
    expect(barePath(PLANTED_PATH)).toBe('/sign-in');
    expect(scrubPath('/campaign/1#comments')).toBe('/campaign/1#');
    expect(scrubText(PLANTED_MESSAGE)).toBe(
      'Failed for [email] at https://example.com/reset?[query] (Bearer [secret] password: [secret]',
    );
  });

  it('builds a report with no secret in it, dropping the oldest events to fit the size limit', () => {
    const events = ALL_TYPES.map((type) => ({ type, ...plantedFields() }));
    const log = {
      events,
      dropped: 2,
      snapshot: {
        value: { navigation: 'idle', errors: 'shown' },
        context: {
          current: { route: 'signIn' },
          error: { statusCode: 500, message: PLANTED_MESSAGE },
          build: { id: 'build-9' },
        },
        hasTag: () => true,
      },
      boot: { path: PLANTED_PATH, title: `Profile of ${EMAIL}` },
    };
    const cause = { kind: 'view' as const, error: { statusCode: 500, message: PLANTED_MESSAGE } };
    const report = buildReport(cause, log, { buildId: 'x', path: PLANTED_PATH, now: 5, maxBytes: 15 * 1024 });
    expect(leaks(report)).toEqual([]);
    expect(report).toMatchObject({
      kind: 'error',
      buildId: 'build-9',
      route: { name: 'signIn', path: '/sign-in' },
      boot: { path: '/sign-in', title: null },
      error: { name: 'Error', status: 500 },
      eventsDropped: 2,
      events: expect.any(Array),
    });
    expect(report.events).toHaveLength(events.length);

    const small = buildReport(cause, log, { buildId: 'x', path: '/', now: 5, maxBytes: 1500 });
    expect(new TextEncoder().encode(JSON.stringify(small)).length).toBeLessThanOrEqual(1500);
    expect(small.eventsDropped).toBe(2 + events.length - small.events.length);
    expect(small.events.at(-1)?.type).toBe('something.unknown');
  });

  it("names the route of the path the visitor is on, not the context's page, after a failed navigation", () => {
    const log = {
      events: [],
      dropped: 0,
      snapshot: {
        value: { navigation: 'idle', errors: 'shown' },
        context: { current: null, error: { statusCode: 500, message: 'Boom' }, build: { id: 'b' } },
        hasTag: () => true,
      },
      boot: null,
    };
    const cause = { kind: 'view' as const, error: { statusCode: 500, message: 'Boom' } };
    const options = {
      buildId: 'x',
      now: 5,
      maxBytes: 15 * 1024,
      routeOf: (path: string) => matchRoute(path)?.route.name,
    };
    expect(buildReport(cause, log, { ...options, path: '/campaign/1' }).route).toEqual({
      name: 'campaign',
      path: '/campaign/1',
    });
    expect(buildReport(cause, log, { ...options, path: '/no/such/page' }).route.name).toBeNull();
  });
});

const SCRUBBED_PATH = '/sign-in?redirect=&email=&token=#';
const SCRUBBED_MESSAGE =
  'Failed for [email] at https://example.com/reset?[query] (Bearer [secret] password: [secret]';

/**
 * What a developer replaying needs from each event type, when every field holds a well-typed value: exactly the
 * allow-listed fields, scrubbed. A type missing here fails the test below, so the table grows with the machine.
 */
const KEPT_PER_TYPE: Record<string, Record<string, unknown>> = {
  'nav.go': { to: SCRUBBED_PATH, replace: true },
  'nav.popped': { to: SCRUBBED_PATH },
  'page.changed': { visible: true, online: false },
  'page.restored': {},
  'session.changed': { signedIn: true },
  'error.raised': {
    error: {
      statusCode: 500,
      statusMessage: 'Bad [secret]',
      message: SCRUBBED_MESSAGE,
      fatal: true,
      path: SCRUBBED_PATH,
    },
  },
  'page.settled': {},
  'manifest.needed': {},
  'manifest.settled': {},
  // The crawler check answers with a boolean; an object is not one.
  'xstate.done.actor.detectCrawler': {},
  'xstate.done.actor.loadPage': { output: { data: null, fromPayload: false } },
  'xstate.done.actor.retryPage': { output: { data: null, fromPayload: false } },
  'xstate.done.actor.revalidatePage': { output: { data: null, fromPayload: false } },
  'xstate.done.actor.fetchManifest': { output: { id: 'build-2', timestamp: 1, rules: {}, prerendered: [] } },
  'xstate.done.actor.checkForUpdate': { output: { id: 'build-2', timestamp: 1, rules: {}, prerendered: [] } },
  'xstate.done.actor.checkBuildAfterChunkError': {
    output: { id: 'build-2', timestamp: 1, rules: {}, prerendered: [] },
  },
  // Long-running children and reload claims: their output (an object here) is not reported.
  'xstate.done.actor.session': {},
  'xstate.done.actor.toaster': {},
  'xstate.done.actor.colorMode': {},
  'xstate.done.actor.history': {},
  'xstate.done.actor.page': {},
  'xstate.done.actor.claimUpdateReload': {},
  'xstate.done.actor.claimChunkReload': {},
  'xstate.after.slowNavigation.app.navigation.loading.quick': {},
  'something.unknown': {},
};
const THROWN = {
  error: {
    $error: SCRUBBED_MESSAGE,
    name: 'Error [email]',
    kind: 'chunk',
    statusCode: 500,
    status: 502,
    statusMessage: 'Bad [secret]',
    fatal: true,
  },
};
const keptFor = (type: string) => (type.startsWith('xstate.error.actor.') ? THROWN : KEPT_PER_TYPE[type]);

/** The same field names, each holding a secret or a value of the wrong type: nothing of it may be kept. */
function mistypedFields(): Record<string, unknown> {
  return {
    to: 7,
    replace: EMAIL,
    visible: TOKEN,
    online: 'true',
    signedIn: 1,
    error: {
      message: 42,
      name: 7,
      kind: 3,
      statusCode: 500.5,
      status: '500',
      statusMessage: 9,
      fatal: 'yes',
      path: 5,
      body: { password: PASSWORD },
    },
    output: null,
  };
}
const MISTYPED_KEPT: Record<string, Record<string, unknown>> = {
  'nav.go': { to: '' },
  'nav.popped': { to: '' },
  'error.raised': { error: { message: '' } },
  'xstate.done.actor.loadPage': { output: { data: null } },
  'xstate.done.actor.retryPage': { output: { data: null } },
  'xstate.done.actor.revalidatePage': { output: { data: null } },
  'xstate.done.actor.fetchManifest': { output: {} },
  'xstate.done.actor.checkForUpdate': { output: {} },
  'xstate.done.actor.checkBuildAfterChunkError': { output: {} },
};

describe('what a report keeps of each event', () => {
  it.each(ALL_TYPES)('keeps exactly the allow-listed fields of %s', (type) => {
    expect(keptFor(type), `add ${type} to KEPT_PER_TYPE`).toBeDefined();
    expect(scrubEvent({ type, ...plantedFields() })).toStrictEqual({ type, ...keptFor(type) });
  });

  it.each(ALL_TYPES)('drops the fields of %s that hold the wrong type', (type) => {
    const expected = type.startsWith('xstate.error.actor.') ? { error: { $error: '' } } : MISTYPED_KEPT[type];
    expect(scrubEvent({ type, ...mistypedFields() })).toStrictEqual({ type, ...expected });
  });

  it('keeps a field that is missing out of the report rather than reporting it empty', () => {
    expect(scrubEvent({ type: 'nav.go', to: '/a' })).toStrictEqual({ type: 'nav.go', to: '/a' });
    expect(scrubEvent({ type: 'nav.popped' })).toStrictEqual({ type: 'nav.popped', to: '' });
    expect(scrubEvent({ type: 'error.raised', error: null })).toStrictEqual({
      type: 'error.raised',
      error: { message: '' },
    });
    expect(scrubEvent({ type: 'xstate.error.actor.loadPage' })).toStrictEqual({
      type: 'xstate.error.actor.loadPage',
      error: { $error: '' },
    });
  });

  it("keeps the crawler check's answer", () => {
    for (const output of [true, false]) {
      expect(scrubEvent({ type: 'xstate.done.actor.detectCrawler', output })).toStrictEqual({
        type: 'xstate.done.actor.detectCrawler',
        output,
      });
    }
  });

  it('keeps the three words a reload claim answers with, and no other output', () => {
    for (const output of ['granted', 'denied', 'unavailable']) {
      expect(scrubEvent({ type: 'xstate.done.actor.claimChunkReload', output })).toStrictEqual({
        type: 'xstate.done.actor.claimChunkReload',
        output,
      });
    }
    for (const output of [EMAIL, 'grant', 1, true]) {
      expect(scrubEvent({ type: 'xstate.done.actor.claimUpdateReload', output })).toStrictEqual({
        type: 'xstate.done.actor.claimUpdateReload',
      });
    }
  });

  it('keeps the words of a string an effect rejected with, scrubbed', () => {
    expect(
      scrubEvent({ type: 'xstate.error.actor.fetchManifest', error: `Offline, ask ${EMAIL}` }),
    ).toStrictEqual({
      type: 'xstate.error.actor.fetchManifest',
      error: { $error: 'Offline, ask [email]' },
    });
  });

  it('bounds the kept text fields', () => {
    const words = 'word '.repeat(100);
    const error = { message: words, name: words, kind: 'k'.repeat(100), statusMessage: words };
    expect(scrubEvent({ type: 'xstate.error.actor.loadPage', error })).toStrictEqual({
      type: 'xstate.error.actor.loadPage',
      error: {
        $error: words.slice(0, 300),
        name: words.slice(0, 80),
        kind: 'k'.repeat(40),
        statusMessage: words.slice(0, 300),
      },
    });
    expect(
      scrubEvent({
        type: 'xstate.done.actor.checkForUpdate',
        output: { id: 5, timestamp: '2', rules: 'all', prerendered: { length: 0 } },
      }),
    ).toStrictEqual({ type: 'xstate.done.actor.checkForUpdate', output: {} });
    const manifest = { id: 'i'.repeat(100), timestamp: 2, rules: null, prerendered: 'all' };
    expect(scrubEvent({ type: 'xstate.done.actor.fetchManifest', output: manifest })).toStrictEqual({
      type: 'xstate.done.actor.fetchManifest',
      output: { id: 'i'.repeat(64), timestamp: 2, rules: null },
    });
  });

  it('reports an unknown or timer type with its text scrubbed and bounded', () => {
    expect(scrubEvent({ type: `mail.${EMAIL}` })).toStrictEqual({ type: '[email]' });
    const long = 'a.'.repeat(100);
    expect(scrubEvent({ type: long })).toStrictEqual({ type: long.slice(0, 160) });
    expect(scrubEvent({ type: `xstate.done.actor.${long}` })).toStrictEqual({
      type: `xstate.done.actor.${long}`.slice(0, 160),
    });
  });
});

describe('scrubbed paths', () => {
  it('keeps the query keys with empty values, in order, and only a bare fragment', () => {
    expect(scrubPath('/search?q=maple&page=2')).toBe('/search?q=&page=');
    expect(scrubPath('/search?q&&page=2&')).toBe('/search?q=&page=');
    expect(scrubPath('/search?')).toBe('/search?');
    expect(scrubPath('/?q=1')).toBe('/?q=');
    expect(scrubPath('/a#b?c=1')).toBe('/a#');
    expect(scrubPath('/a?b=1#c?d=2')).toBe('/a?b=#');
    expect(scrubPath('/campaign/1')).toBe('/campaign/1');
  });

  it('scrubs and bounds each query key, and the whole path', () => {
    const key = 'the.name.of.a.filter.that.is.far.too.long.to.keep';
    expect(scrubPath(`/a?${key}=1&${EMAIL}=2`)).toBe(`/a?${key.slice(0, 40)}=&[email]=`);
    const keys = Array.from({ length: 600 }, (_, index) => `k${index}=1`).join('&');
    const scrubbed = scrubPath(`/a?${keys}#x`);
    expect(scrubbed).toHaveLength(2048);
    expect(scrubbed.startsWith('/a?k0=&k1=&k2=&')).toBe(true);
  });

  it('reports anything that is not a string as no path', () => {
    expect(scrubPath(undefined)).toBe('');
    expect(scrubPath({ toString: () => '/a' })).toBe('');
  });

  it("gives the report's route path without query or fragment, and / for none", () => {
    expect(barePath('/campaign/1?x=1')).toBe('/campaign/1');
    expect(barePath('/campaign/1#x')).toBe('/campaign/1');
    expect(barePath('?x=1')).toBe('/');
    expect(barePath('#top')).toBe('/');
    expect(barePath(`/u/${EMAIL}`)).toBe('/u/[email]');
  });
});

describe('scrubbed text', () => {
  it.each([
    ['nothing to hide, just words', 'nothing to hide, just words'],
    ['mail a.b@example.com and c@d.io now', 'mail [email] and [email] now'],
    ['<a.b@example.com> "c@d.io" x/e@f.org', '<[email]> "[email]" x/[email]'],
    ['user@localhost is no address', 'user@localhost is no address'],
    ['Bearer abc', 'Bearer [secret]'],
    ['Bearer   abc', 'Bearer   [secret]'],
    ['bearer:abc token=def', 'bearer:[secret] token=[secret]'],
    ['password : abc, passwd=def', 'password : [secret] passwd=[secret]'],
    [
      'SECRET xyz apikey=1 api-key: 2 api_key 3',
      'SECRET [secret] apikey=[secret] api-key: [secret] api_key [secret]',
    ],
    ['mytoken=abc is not a token', 'mytoken=abc is not a token'],
    ['GET /a?b=1&c=2 failed', 'GET /a?[query] failed'],
    ['"/a?b=1" and \'/c?d\'', '"/a?[query]" and \'/c?[query]\''],
    ['/a?b=1#frag', '/a?[query]#'],
    ['see #top now', 'see # now'],
    ['a # alone', 'a # alone'],
    ['"#x" \'#y\'', '"#" \'#\''],
    [`jwt ${TOKEN} end`, 'jwt [secret] end'],
    ['key abcdefgh.ijklmnop end', 'key [secret] end'],
    ['hex 0123456789abcdef01234567 end', 'hex [secret] end'],
    ['short 0123456789abcdef0123456 end', 'short 0123456789abcdef0123456 end'],
    ['dots abc.def.ghi end', 'dots abc.def.ghi end'],
  ])('%s', (text, scrubbed) => {
    expect(scrubText(text)).toBe(scrubbed);
  });

  it('bounds free text and reports anything that is not a string as none', () => {
    expect(scrubText('word '.repeat(100))).toBe('word '.repeat(60));
    expect(scrubText(42)).toBe('');
    expect(scrubText(null)).toBe('');
  });
});
