// @vitest-environment node
/**
 * The report scrubber: secrets planted in every field of every event type the app actor can receive
 * (its AppEvent union, and a done and an error event for every actor it invokes) never come out of it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { type AppEvent, appMachine } from '../machines/app.machine';
import { matchRoute } from '../machines/routes';
import { buildReport } from '../src/platform/reporter';
import { barePath, EVENT_ALLOW_LIST, scrubEvent, scrubPath, scrubText } from '../src/platform/reportScrub';

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
    body: form,
    request: { headers: { authorization: `Bearer ${TOKEN}`, cookie: `sid=${RESET}` } },
  });
  return {
    to: PLANTED_PATH,
    replace: true,
    visible: true,
    online: true,
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
  'session.changed': true,
  'error.raised': true,
  'error.cleared': true,
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
