// The tests that scripts/mutation/mutant-kinds.test.mjs runs against each kind's mutant of the fixtures here
// (timedFetch.ts and sessions.ts have test files of their own).
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { nextDelay } from './backoff';
import { door } from './door';
import { saveDraft } from './save';

describe('fixtures', () => {
  it('backs off to a minute at most', () => {
    expect(nextDelay(0)).toBe(1_000);
    expect(nextDelay(10)).toBe(60_000);
  });

  it('counts the draft once it is written', async () => {
    const saved: string[] = [];
    const store = {
      saved,
      write: (value: string) =>
        new Promise<void>((done) => setTimeout(() => done(void saved.push(value)), 1)),
    };
    expect(await saveDraft(store, 'hello')).toBe(1);
  });

  it('alarms on a revoked badge, which also looks known, and counts it', () => {
    const actor = createActor(door).start();
    actor.send({ type: 'badge', id: 'revoked-7' });
    expect(actor.getSnapshot().value).toBe('alarm');
    expect(actor.getSnapshot().context).toEqual({ shown: 1, alarms: 1 });
  });
});
