/** What each state of a toast promises, and what its transitions change (../../support/pathPromises.ts). */
import type { ToastContext } from '../../../machines/toast/toast.machine';
import { LONGEST_TIMER_MS } from '../../../machines/toast/toaster.utils';
import {
  type Moment,
  promise,
  requested,
  type StatePromises,
  type TransitionPromises,
} from '../../support/pathPromises';

const context = (moment: Moment) => moment.context as ToastContext;

const timers = (moment: Moment, delay: string) =>
  moment.effects.flatMap((effect) =>
    'timer' in effect && effect.timer.includes(`.${delay}.`) ? [effect.ms] : [],
  );

const reportsOnEntry = (action: 'reportClosed' | 'reportRemoved', said: string) =>
  promise(`tells the toaster it ${said}, once, on entry`, (moment) =>
    moment.entered ? requested(moment, action).length === 1 : requested(moment, action).length === 0,
  );

const timerStopped = promise('its timer is stopped', (moment) => context(moment).startedAt === null);

const snapsBack = promise(
  'snaps back into place, still on screen',
  (moment) =>
    moment.snapshot.hasTag('shown') &&
    context(moment).swipeOutcome === 'cancel' &&
    context(moment).delta.x === 0 &&
    context(moment).delta.y === 0,
);

export const toastPromises: StatePromises = {
  toast: [
    promise(
      'never has more time left than its duration',
      (moment) => context(moment).remaining <= context(moment).duration,
    ),
    promise(
      'is tagged `leaving` exactly while closed, and is done exactly once removed',
      ({ snapshot }) =>
        snapshot.hasTag('leaving') === snapshot.matches('closed') &&
        (snapshot.status === 'done') === snapshot.matches('removed'),
    ),
  ],
  shown: [
    promise('is on screen (tag `shown`)', ({ snapshot }) => snapshot.hasTag('shown')),
    promise('has not told the toaster it closed', (moment) => requested(moment, 'reportClosed').length === 0),
  ],
  'shown.resting': [
    promise(
      'sits in place: no swipe offset',
      (moment) => context(moment).delta.x === 0 && context(moment).delta.y === 0,
    ),
    promise('has not been swiped away', (moment) => context(moment).swipeOutcome !== 'end'),
  ],
  'shown.resting.open': [
    promise(
      'counts down: its timer runs (tag `counting`), the viewport not holding it',
      (moment) =>
        !moment.settled ||
        (context(moment).startedAt !== null && moment.snapshot.hasTag('counting') && !context(moment).held),
    ),
    promise('sets a timer for the time it has left on entry', (moment) => {
      if (!moment.entered) return true;
      return timers(moment, 'timeLeft').includes(Math.min(context(moment).remaining, LONGEST_TIMER_MS));
    }),
  ],
  'shown.resting.paused': [
    timerStopped,
    promise(
      'is held by the viewport (tag `held`)',
      (moment) => context(moment).held && moment.snapshot.hasTag('held'),
    ),
  ],
  'shown.swiping': [
    timerStopped,
    promise(
      'follows a pointer that went down on it (tags `held`, `swiping`)',
      (moment) =>
        context(moment).gesture !== null &&
        moment.snapshot.hasTag('held') &&
        moment.snapshot.hasTag('swiping'),
    ),
  ],
  closed: [
    timerStopped,
    reportsOnEntry('reportClosed', 'closed'),
    promise(
      'waits the removal delay on entry, for its exit animation',
      (moment) => !moment.entered || timers(moment, 'removeDelay').includes(context(moment).removeDelayMs),
    ),
  ],
  removed: [reportsOnEntry('reportRemoved', 'is gone')],
};

export const toastTransitions: TransitionPromises = {
  'shown on toast.update': [
    promise('shows the new title', (moment) => {
      const patch = (moment.event as { patch?: { title?: string } }).patch;
      return patch?.title === undefined || context(moment).content.title === patch.title;
    }),
  ],
  'shown.resting.open on toast.update [changesDuration]': [
    promise('starts the new duration afresh', (moment) => {
      const duration = (moment.event as { patch?: { duration?: number } }).patch?.duration;
      return (
        context(moment).duration === duration &&
        context(moment).remaining === duration &&
        timers(moment, 'timeLeft').includes(Math.min(duration, LONGEST_TIMER_MS))
      );
    }),
  ],
  'shown.swiping on toast.swipeEnd [isBeyondThreshold]': [
    promise('leaves as swiped away', (moment) => context(moment).swipeOutcome === 'end'),
  ],
  'shown.swiping on toast.swipeEnd': [snapsBack],
  'shown.swiping on toast.swipeCancel': [snapsBack],
  'shown.swiping on toast.pointerLost': [snapsBack],
};
