import { describe, expect, it } from 'vitest';
import { type AnyEventObject, assign, fromPromise, setup } from 'xstate';
import { brokenPromises, promise, promiseGaps, requested, running } from './pathPromises';

/** A door that, opened, asks for a light and rings; a transient `checking` decides whether it is locked. */
function door(options: { ring?: boolean; lightFor?: string } = {}) {
  return setup({
    types: { context: {} as { opens: number; locked: boolean }, events: {} as AnyEventObject },
    actors: { light: fromPromise<void, { room: string }>(() => new Promise(() => {})) },
    actions: { ring: () => {} },
  }).createMachine({
    id: 'door',
    context: { opens: 0, locked: false },
    initial: 'closed',
    states: {
      closed: { on: { push: 'checking', lock: { actions: assign({ locked: true }) } } },
      checking: {
        entry: assign({ opens: ({ context }) => context.opens + 1 }),
        always: [{ guard: ({ context }) => context.locked, target: 'closed' }, { target: 'open' }],
      },
      open: {
        entry: options.ring === false ? [] : ['ring'],
        invoke: { src: 'light', id: 'light', input: { room: options.lightFor ?? 'hall' } },
        on: { pull: { target: 'closed', actions: 'ring' } },
      },
    },
  });
}

const events = (...types: string[]) => [{ type: 'xstate.init' }, ...types.map((type) => ({ type }))];
const paths = [
  { description: 'open and close', events: events('push', 'pull') },
  { description: 'locked', events: events('lock', 'push') },
];

const promises = {
  door: [promise('counts every opening', ({ context }) => context.opens >= 0)],
  closed: [promise('has no light on', ({ snapshot }) => running(snapshot, 'light') === undefined)],
  checking: [promise('has counted this opening', ({ context }) => context.opens > 0)],
  open: [
    promise('lights the hall', ({ snapshot }) => running(snapshot, 'light')?.room === 'hall'),
    promise('rings on entry', (moment) => !moment.entered || requested(moment, 'ring').length === 1),
  ],
};

describe('path promises', () => {
  it('names a state without a promise, and a promise for a state or transition the machine lacks', () => {
    const { checking: _checking, ...withoutChecking } = promises;
    expect(
      promiseGaps(
        door(),
        { ...withoutChecking, ajar: [promise('creaks', () => true)] },
        { 'open on pull': [], 'open on slam': [] },
      ),
    ).toEqual([
      'state checking promises nothing: name what it shows, requests or keeps',
      'promises name a state the machine does not have: ajar',
      'promises name a transition the machine does not have: open on slam',
    ]);
    expect(promiseGaps(door(), promises, { 'open on pull': [] })).toEqual([]);
  });

  it('passes when every step keeps every promise, a state only passed through included', () => {
    const result = brokenPromises(paths, { machine: door(), promises });
    expect(result).toEqual({ infeasible: 0, replayed: 2, messages: [] });
  });

  it('names the broken promise, its state and the path, once for all the paths that break it', () => {
    const { messages } = brokenPromises(paths, {
      machine: door({ ring: false, lightFor: 'attic' }),
      promises,
    });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(
      /^state open promises "lights the hall" — path: init → push \(step 1 of 2, value "open"/,
    );
  });

  it('checks a transition’s promises on the steps that take it, against the state it was taken from', () => {
    const closes = {
      'open on pull': [
        promise(
          'rings as it closes, from an open door',
          (moment) => requested(moment, 'ring').length === 1 && moment.previous?.value === 'open',
        ),
      ],
    };
    expect(brokenPromises(paths, { machine: door(), promises, transitions: closes }).messages).toEqual([]);
    const silent = {
      'open on pull': [promise('rings twice', (moment) => requested(moment, 'ring').length === 2)],
    };
    expect(brokenPromises(paths, { machine: door(), promises, transitions: silent }).messages[0]).toMatch(
      /^transition open on pull promises "rings twice" — path: init → push → pull/,
    );
  });
});
