import { describe, expect, it } from 'vitest';
import {
  type ActorRefFrom,
  type AnyEventObject,
  type AnyMachineSnapshot,
  createActor,
  createMachine,
  fromPromise,
} from 'xstate';
import { type SessionUser, sessionMachine } from '../../../machines/session/session.machine';
import {
  createToasterMachine,
  type ToasterContext,
  type ToasterEvent,
  toasterMachine,
} from '../../../machines/toast/toaster.machine';
import {
  announcementOf,
  assertToasterLabel,
  assertToastType,
  contentOf,
  hotkeyLabel,
  type ToasterSettings,
} from '../../../machines/toast/toaster.utils';
import { connectToastApi, toast } from '../../../src/platform/toast';
import { flush } from '../../support/appHarness';
import { registerPathTests } from '../../support/pathPromises';
import { leafState } from '../../support/pathTesting';
import { inertToasterActors, testToaster, testToasterSettings } from '../../support/toasterHarness';
import { toasterPromises, toasterTransitions } from './toaster.promises';

const settings = testToasterSettings;
const inertActors = inertToasterActors;

/** A toaster on a simulated clock (its toasts' `now` reads the same clock). */
function startToaster(overrides: Partial<ToasterSettings> = {}) {
  const { logic, clock } = testToaster(overrides);
  const actor = createActor(logic, { clock }).start();
  const send = (event: ToasterEvent) => actor.send(event);
  const context = (): ToasterContext => actor.getSnapshot().context;
  /** Each shown toast as `id:state`, oldest first. */
  const shown = () =>
    context().entries.map(
      (entry) => `${entry.id}:${JSON.stringify(leafState(entry.ref.getSnapshot().value))}`,
    );
  const queued = () => context().queue.map((entry) => entry.id);
  const liveToastActors = () =>
    Object.keys(actor.getSnapshot().children).filter((id) => id.startsWith('toast#')).length;
  const add = (id: string, extra: Omit<Parameters<typeof toast.add>[0] & object, 'id'> = {}) =>
    send({ type: 'toast.add', toast: { id, title: `Toast ${id}`, ...extra } });
  return { actor, clock, send, context, shown, queued, liveToastActors, add };
}

describe('toaster machine', () => {
  it('shows at most five toasts; the sixth waits without a timer and counts down in full once shown', () => {
    const toaster = startToaster();
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) toaster.add(id);
    expect(toaster.shown()).toEqual(['a:"open"', 'b:"open"', 'c:"open"', 'd:"open"', 'e:"open"']);
    expect(toaster.queued()).toEqual(['f']);
    expect(toaster.liveToastActors()).toBe(5);
    toaster.clock.increment(5000);
    expect(toaster.shown()).toEqual(['a:"closed"', 'b:"closed"', 'c:"closed"', 'd:"closed"', 'e:"closed"']);
    expect(toaster.queued()).toEqual(['f']);
    toaster.clock.increment(200);
    expect(toaster.shown()).toEqual(['f:"open"']);
    expect(toaster.liveToastActors()).toBe(1);
    toaster.clock.increment(4999);
    expect(toaster.shown()).toEqual(['f:"open"']);
    toaster.clock.increment(1);
    expect(toaster.shown()).toEqual(['f:"closed"']);
    toaster.clock.increment(200);
    expect(toaster.actor.getSnapshot().hasTag('empty')).toBe(true);
    expect(toaster.liveToastActors()).toBe(0);
  });

  it('updates a toast in place when one is added with an id that is shown or waiting', () => {
    const toaster = startToaster({ maxVisible: 1 });
    toaster.add('a');
    toaster.add('b');
    toaster.clock.increment(3000);
    toaster.add('a', { title: 'Again' });
    toaster.add('b', { description: 'More' });
    expect(toaster.shown()).toEqual(['a:"open"']);
    expect(toaster.context().entries[0]?.ref.getSnapshot().context.content.title).toBe('Again');
    expect(toaster.context().queue[0]?.options).toMatchObject({ title: 'Toast b', description: 'More' });
    // Same duration: the timer carries on.
    toaster.clock.increment(2000);
    expect(toaster.shown()).toEqual(['a:"closed"']);
  });

  it('updates and dismisses by id; a dismissed toast plays its exit for 200 ms and its actor stops', () => {
    const toaster = startToaster({ maxVisible: 1 });
    toaster.add('a');
    toaster.add('b');
    toaster.send({ type: 'toast.update', id: 'a', patch: { duration: Number.POSITIVE_INFINITY } });
    toaster.send({ type: 'toast.update', id: 'b', patch: { duration: 1000 } });
    toaster.clock.increment(60_000);
    expect(toaster.shown()).toEqual(['a:"open"']);
    toaster.send({ type: 'toast.dismiss', id: 'a' });
    expect(toaster.shown()).toEqual(['a:"closed"']);
    toaster.clock.increment(200);
    expect(toaster.shown()).toEqual(['b:"open"']);
    toaster.clock.increment(1000);
    expect(toaster.shown()).toEqual(['b:"closed"']);
    toaster.add('c');
    toaster.add('d');
    toaster.send({ type: 'toast.dismiss', id: 'd' });
    expect(toaster.queued()).toEqual(['c']);
    toaster.send({ type: 'toast.update', id: 'nope', patch: { title: 'x' } });
    toaster.send({ type: 'toast.dismiss', id: 'nope' });
    expect(toaster.queued()).toEqual(['c']);
  });

  it('clears everything at once, stopping every toast actor', () => {
    const toaster = startToaster();
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f', 'g']) toaster.add(id);
    toaster.send({ type: 'toast.clear' });
    expect(toaster.context().entries).toEqual([]);
    expect(toaster.context().queue).toEqual([]);
    expect(toaster.liveToastActors()).toBe(0);
    expect(toaster.actor.getSnapshot().hasTag('empty')).toBe(true);
  });

  it('lets a closed id come back as a new toast while the old one leaves', () => {
    const toaster = startToaster();
    toaster.add('a');
    toaster.send({ type: 'toast.dismiss', id: 'a' });
    toaster.add('a', { title: 'Back' });
    expect(toaster.shown()).toEqual(['a:"closed"', 'a:"open"']);
    toaster.clock.increment(200);
    expect(toaster.shown()).toEqual(['a:"open"']);
    expect(toaster.context().entries[0]?.ref.getSnapshot().context.content.title).toBe('Back');
  });

  it('keeps pause reasons as a set: timers run only when none is left, with the remaining time', () => {
    const toaster = startToaster();
    toaster.add('a');
    toaster.clock.increment(1000);
    toaster.send({ type: 'viewport.pause', reason: 'pointer' });
    toaster.send({ type: 'viewport.pause', reason: 'focus' });
    toaster.send({ type: 'viewport.pause', reason: 'pointer' });
    expect(toaster.context().pausedBy).toEqual(['focus', 'pointer']);
    expect(toaster.actor.getSnapshot().hasTag('paused')).toBe(true);
    toaster.send({ type: 'viewport.resume', reason: 'pointer' });
    toaster.clock.increment(10_000);
    expect(toaster.shown()).toEqual(['a:"paused"']);
    toaster.send({ type: 'viewport.resume', reason: 'window' });
    expect(toaster.context().pausedBy).toEqual(['focus']);
    toaster.send({ type: 'viewport.resume', reason: 'focus' });
    expect(toaster.actor.getSnapshot().hasTag('paused')).toBe(false);
    toaster.clock.increment(3999);
    expect(toaster.shown()).toEqual(['a:"open"']);
    toaster.clock.increment(1);
    expect(toaster.shown()).toEqual(['a:"closed"']);
  });

  it('shows a toast paused when the viewport is paused, and forgets the reasons once empty', () => {
    const toaster = startToaster();
    toaster.add('a');
    toaster.send({ type: 'viewport.pause', reason: 'hidden' });
    toaster.add('b');
    expect(toaster.shown()).toEqual(['a:"paused"', 'b:"paused"']);
    toaster.send({ type: 'toast.clear' });
    expect(toaster.context().pausedBy).toEqual([]);
    toaster.add('c');
    expect(toaster.shown()).toEqual(['c:"open"']);
  });

  it('closes the focused toast on Escape, or else the newest open one, one per press', () => {
    const toaster = startToaster();
    for (const id of ['a', 'b', 'c']) toaster.add(id);
    toaster.send({ type: 'viewport.escape', toastId: 'a' });
    expect(toaster.shown()).toEqual(['a:"closed"', 'b:"open"', 'c:"open"']);
    toaster.send({ type: 'viewport.escape', toastId: null });
    expect(toaster.shown()).toEqual(['a:"closed"', 'b:"open"', 'c:"closed"']);
    toaster.send({ type: 'viewport.escape', toastId: 'c' });
    expect(toaster.shown()).toEqual(['a:"closed"', 'b:"closed"', 'c:"closed"']);
    toaster.send({ type: 'viewport.escape', toastId: null });
    toaster.clock.increment(200);
    expect(toaster.actor.getSnapshot().hasTag('empty')).toBe(true);
  });

  it('gives ids to toasts added without one', () => {
    const toaster = startToaster({ maxVisible: 1 });
    toaster.send({ type: 'toast.add', toast: { title: 'One' } });
    toaster.send({ type: 'toast.add', toast: { title: 'Two' } });
    expect(toaster.context().entries[0]?.id).toBe('auto-1');
    expect(toaster.queued()).toEqual(['auto-2']);
  });

  it('never gives a toast added without an id the id of one shown or waiting (regression: two toasts, one id)', () => {
    const toaster = startToaster({ maxVisible: 2 });
    toaster.add('auto-2', { duration: Number.POSITIVE_INFINITY });
    toaster.send({ type: 'toast.add', toast: { title: 'Shown' } });
    toaster.add('auto-4');
    toaster.send({ type: 'toast.add', toast: { title: 'Queued' } });
    const ids = [...toaster.context().entries.map((entry) => entry.id), ...toaster.queued()];
    expect(new Set(ids).size).toBe(4);
    expect(toaster.shown()).toEqual(['auto-2:"open"', 'auto-3:"open"']);
    // The toast without an id times out on its own; the one that stays is left alone.
    toaster.clock.increment(5000);
    toaster.clock.increment(200);
    expect(toaster.shown()).toEqual(['auto-2:"open"', 'auto-4:"open"']);
    expect(toaster.queued()).toEqual(['auto-5']);
  });

  it('reuses toast actor ids, so XState never sees an endless stream of new done-event types (regression: memo leak)', () => {
    const toaster = startToaster();
    const actorIds = new Set<string>();
    const keys = new Set<string>();
    let shown = 0;
    const note = () => {
      for (const entry of toaster.context().entries) {
        actorIds.add(entry.ref.id);
        if (!keys.has(entry.key)) shown += 1;
        keys.add(entry.key);
      }
    };
    for (let round = 0; round < 40; round += 1) {
      for (let i = 0; i < 7; i += 1) toaster.add(`r${round}-${i}`);
      note();
      toaster.send({ type: 'toast.clear' });
    }
    for (let i = 0; i < 40; i += 1) {
      toaster.add(`t${i}`);
      note();
      toaster.clock.increment(5200);
    }
    expect([...actorIds].sort()).toEqual(['toast#0', 'toast#1', 'toast#2', 'toast#3', 'toast#4']);
    // The view still gets a key of its own for every toast.
    expect(shown).toBe(40 * 5 + 40);
    expect(keys.size).toBe(shown);
  });

  it('fails loudly when the app forgets to provide a configured toaster', () => {
    const actor = createActor(toasterMachine);
    const errors: unknown[] = [];
    actor.subscribe({ error: (error) => errors.push(error) });
    actor.start();
    expect(actor.getSnapshot().status).toBe('error');
    expect(String(errors[0])).toMatch(/no settings or clock/);
  });
});

describe('session feedback', () => {
  it('reaches the toaster through the system: signed in, profile saved, failures, signed out', async () => {
    const user = { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' };
    let failSignOut = true;
    const session = sessionMachine.provide({
      actors: {
        fetchSession: fromPromise<SessionUser | null>(async () => null),
        signIn: fromPromise(async () => user),
        saveProfile: fromPromise(async ({ input }: { input: { displayName: string } }) => ({
          ...user,
          displayName: input.displayName,
        })),
        signOut: fromPromise(async () => {
          if (failSignOut) throw new Error('Network down');
        }),
      },
    });
    const toasterLogic = createToasterMachine({ settings, now: () => 0 }).provide({ actors: inertActors });
    const root = createActor(
      createMachine({
        invoke: [
          { id: 'session', systemId: 'session', src: session },
          { id: 'toaster', systemId: 'toaster', src: toasterLogic },
        ],
      }),
    ).start();
    const sessionRef = root.system.get('session') as ActorRefFrom<typeof sessionMachine>;
    const toasterRef = root.system.get('toaster') as ActorRefFrom<typeof toasterLogic>;
    const titles = () =>
      toasterRef.getSnapshot().context.entries.map((entry) => entry.ref.getSnapshot().context.content.title);
    await flush();
    sessionRef.send({ type: 'session.signIn', email: user.email, password: 'pw' });
    await flush();
    sessionRef.send({ type: 'session.saveProfile', displayName: 'Dee' });
    await flush();
    sessionRef.send({ type: 'session.signOut' });
    await flush();
    failSignOut = false;
    sessionRef.send({ type: 'session.signOut' });
    await flush();
    expect(titles()).toEqual(['Signed in', 'Profile saved', 'Still signed in', 'Signed out']);
    expect(toasterRef.getSnapshot().context.entries[1]?.ref.getSnapshot().context.content.description).toBe(
      'Others now see you as Dee.',
    );
  });
});

describe('toast API', () => {
  it('delivers calls made before the toaster runs, in order, and then sends straight through', () => {
    const received: ToasterEvent[] = [];
    const id = toast.add({ title: 'Early' });
    toast.update(id, { description: 'Still early' });
    expect(id).toMatch(/^toast-\d+$/);
    const disconnect = connectToastApi(
      (event) => received.push(event),
      () => undefined,
    );
    toast.dismiss(id);
    toast.clear();
    expect(received).toEqual([
      { type: 'toast.add', toast: { title: 'Early', id } },
      { type: 'toast.update', id, patch: { description: 'Still early' } },
      { type: 'toast.dismiss', id },
      { type: 'toast.clear' },
    ]);
    disconnect();
    expect(toast.add({ id: 'mine' })).toBe('mine');
    const later: ToasterEvent[] = [];
    connectToastApi(
      (event) => later.push(event),
      () => undefined,
    )();
    expect(later).toEqual([{ type: 'toast.add', toast: { id: 'mine' } }]);
  });

  it('refuses a type other than foreground or background, with the message of the reference system', () => {
    expect(() => toast.add({ type: 'urgent' as 'foreground' })).toThrow(
      'Invalid prop `type` supplied to `Toast`. Expected `foreground | background`.',
    );
    expect(() => assertToastType('background')).not.toThrow();
  });

  it('requires a non-empty toaster label, naming the prop', () => {
    for (const label of ['', '   ', '\n']) {
      expect(() => assertToasterLabel(label)).toThrow(
        'Invalid prop `label` supplied to `Toaster`. Expected non-empty `string`.',
      );
    }
    expect(() => assertToasterLabel('Notification')).not.toThrow();
  });

  it('words the region label and the announcements', () => {
    expect(hotkeyLabel(['F8'])).toBe('F8');
    expect(hotkeyLabel(['altKey', 'KeyT'])).toBe('altKey+T');
    expect(announcementOf('Notification', contentOf({ title: 'Saved', description: 'All good.' }))).toBe(
      'Notification Saved All good.',
    );
  });
});

describe('toaster machine: generated paths', () => {
  // Two toasts at most, so queueing is a few steps deep and the graph stays small; the behaviour is the
  // same for any maximum (the five of the spec are checked above).
  const logic = createToasterMachine({ settings: { ...settings, maxVisible: 2 }, now: () => 0 }).provide({
    actors: inertActors,
  });
  const events: AnyEventObject[] = [
    ...['a', 'b', 'c'].map((id) => ({ type: 'toast.add', toast: { id, title: id } })),
    { type: 'toast.update', id: 'a', patch: { title: 'A2' } },
    { type: 'toast.update', id: 'c', patch: { title: 'C2' } },
    { type: 'toast.dismiss', id: 'a' },
    { type: 'toast.dismiss', id: 'c' },
    { type: 'toast.clear' },
    { type: 'toast.closed', id: 'b' },
    { type: 'toast.removed', id: 'a' },
    { type: 'toast.removed', id: 'b' },
    { type: 'viewport.pause', reason: 'pointer' },
    { type: 'viewport.pause', reason: 'focus' },
    { type: 'viewport.resume', reason: 'pointer' },
    { type: 'viewport.resume', reason: 'focus' },
    { type: 'viewport.escape', toastId: 'b' },
    { type: 'viewport.escape', toastId: null },
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as ToasterContext;
    return JSON.stringify([
      snapshot.value,
      context.entries.map((entry) => `${entry.id}${entry.open ? '' : '×'}`),
      context.queue.map((queued) => queued.id),
      context.pausedBy,
    ]);
  };
  // One path per (shape of the state, event): the finer `serializeState` only helps the walk reach states.
  const edgeKey = (snapshot: AnyMachineSnapshot) => {
    const context = snapshot.context as ToasterContext;
    return JSON.stringify([
      snapshot.value,
      context.entries.length,
      context.entries.filter((entry) => entry.open).length,
      context.queue.length,
      context.pausedBy.length,
    ]);
  };

  registerPathTests({
    title: 'toaster machine',
    machine: logic,
    events,
    serializeState,
    edgeKey,
    // Its toasts measure their remaining time on the replay's clock.
    onClock: (now) => ({
      logic: createToasterMachine({ settings: { ...settings, maxVisible: 2 }, now }).provide({
        actors: inertActors,
      }),
    }),
    minimumPaths: 50,
    promises: toasterPromises,
    transitions: toasterTransitions,
  });
});
