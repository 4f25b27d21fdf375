import { describe, test } from 'vitest';
import { createActor } from 'xstate';
import { testToaster } from '../support/toasterHarness';

/** The machines' own cost per toast: no DOM, time on a simulated clock. Memory is scripts/bench/bench-toasts.mjs. */
function startToaster() {
  const { logic, clock } = testToaster();
  return { actor: createActor(logic, { clock }).start(), clock };
}

describe('toaster machine', () => {
  test('10,000 toasts shown, dismissed and removed, five at a time', async ({ bench }) => {
    await bench('10,000 toasts shown, dismissed and removed, five at a time', () => {
      const { actor, clock } = startToaster();
      for (let round = 0; round < 2000; round += 1) {
        for (let i = 0; i < 5; i += 1)
          actor.send({ type: 'toast.add', toast: { id: `${round}-${i}`, title: 't' } });
        for (let i = 0; i < 5; i += 1) actor.send({ type: 'toast.dismiss', id: `${round}-${i}` });
        clock.increment(200);
      }
      if (Object.keys(actor.getSnapshot().children).some((id) => id.startsWith('toast#'))) {
        throw new Error('toast actors were left behind');
      }
      actor.stop();
    }).run();
  });

  test('10,000 toasts added at once (5 shown, the rest queued), then cleared', async ({ bench }) => {
    await bench('10,000 toasts added at once (5 shown, the rest queued), then cleared', () => {
      const { actor } = startToaster();
      for (let i = 0; i < 10_000; i += 1) actor.send({ type: 'toast.add', toast: { title: 't' } });
      actor.send({ type: 'toast.clear' });
      actor.stop();
    }).run();
  });
});
