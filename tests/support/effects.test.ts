// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  assign,
  createActor,
  createMachine,
  fromCallback,
  fromPromise,
  raise,
  SimulatedClock,
  sendTo,
} from 'xstate';
import { EffectRecorder, plain, revive } from './effects';

/** A machine that requests one effect of every kind the recorder knows. */
const machine = createMachine({
  id: 'sample',
  initial: 'idle',
  context: { count: 0 },
  invoke: { id: 'listener', src: fromCallback(() => () => {}) },
  states: {
    idle: {
      on: {
        go: {
          target: 'working',
          actions: [
            assign({ count: ({ context }) => context.count + 1 }),
            { type: 'log', params: ({ context }) => ({ count: context.count, when: 'go' }) },
            sendTo('listener', { type: 'ping', value: 1 }),
          ],
        },
      },
    },
    working: {
      invoke: { id: 'load', src: fromPromise(() => new Promise(() => {})), input: { page: 2 } },
      after: { 500: 'idle' },
      on: { stop: { target: 'idle', actions: raise({ type: 'stopped' }) } },
    },
  },
});

function start() {
  const clock = new SimulatedClock();
  const recorder = new EffectRecorder(() => clock.now());
  const actor = createActor(machine.provide({ actions: { log: () => {} } }), {
    clock,
    inspect: (event) => recorder.inspect(event as unknown as Parameters<EffectRecorder['inspect']>[0]),
  });
  actor.start();
  return { actor, clock, recorder };
}

describe('effect recorder', () => {
  it('records invokes with their input, actions with their parameters, events to children and timers', () => {
    const { actor, recorder } = start();
    expect(recorder.take()).toEqual([{ invoke: 'listener', id: 'listener' }]);
    actor.send({ type: 'go' });
    // In XState's order: actions and the entry timer, the new actor, then delivery to the child.
    expect(recorder.take()).toEqual([
      { action: 'log', params: { count: 1, when: 'go' } },
      { timer: 'xstate.after.500.sample.working', ms: 500 },
      { invoke: 'load', id: 'load', input: { page: 2 } },
      { sendTo: 'listener', event: { type: 'ping', value: 1 } },
    ]);
    expect([...recorder.timers.entries()]).toEqual([['xstate.after.500.sample.working', 500]]);
  });

  it('records what leaving a state stops and cancels, and raised events', () => {
    const { actor, recorder } = start();
    actor.send({ type: 'go' });
    recorder.take();
    actor.send({ type: 'stop' });
    expect(recorder.take()).toEqual([
      { cancel: 'xstate.after.500.sample.working' },
      { stop: 'load' },
      { raise: { type: 'stopped' } },
    ]);
    expect(recorder.timers.size).toBe(0);
  });

  it('forgets a timer once it has fired', () => {
    const { actor, clock, recorder } = start();
    actor.send({ type: 'go' });
    clock.increment(500);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(recorder.timers.size).toBe(0);
  });

  it('turns errors, infinities, functions and actors into plain data and back', () => {
    const { actor } = start();
    const data = plain({
      error: Object.assign(new Error('offline'), { statusCode: 503 }),
      duration: Number.POSITIVE_INFINITY,
      now: () => 1,
      ref: actor,
    });
    expect(data).toEqual({
      error: { $error: 'offline', statusCode: 503 },
      duration: { $number: 'Infinity' },
      now: '[function]',
      ref: { ref: actor.id },
    });
    const back = revive(JSON.parse(JSON.stringify(data))) as { error: Error; duration: number };
    expect(back.error).toBeInstanceOf(Error);
    expect(back.error.message).toBe('offline');
    expect(back.error).toMatchObject({ statusCode: 503 });
    expect(back.duration).toBe(Number.POSITIVE_INFINITY);
  });
});
