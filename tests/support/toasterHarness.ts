/**
 * The toaster as tests start it: the settings of the spec, its browser listeners silent (tests send their events
 * themselves), and time on a simulated clock that its toasts' `now` reads too.
 */
import { fromCallback, SimulatedClock } from 'xstate';
import { createToasterMachine, type ToasterEvent } from '../../machines/toast/toaster.machine';
import type { SwipeSettings, ToasterSettings } from '../../machines/toast/toaster.utils';

export const testSwipe: SwipeSettings = { direction: 'right', thresholdPx: 50, startTouchPx: 10, startPx: 2 };

export const testToasterSettings: ToasterSettings = {
  durationMs: 5000,
  maxVisible: 5,
  removeDelayMs: 200,
  swipe: testSwipe,
};

const quiet = () => fromCallback<ToasterEvent>(() => () => {});

/** The toaster's browser listeners, all silent. */
export const inertToasterActors = {
  listenToToastApi: quiet(),
  watchWindowFocus: quiet(),
  watchPageVisibility: quiet(),
  listenToHotkey: quiet(),
  listenToEscape: quiet(),
};

/** Toaster logic with `overrides` of the settings and a new simulated clock; the caller creates the actor. */
export function testToaster(overrides: Partial<ToasterSettings> = {}) {
  const clock = new SimulatedClock();
  const logic = createToasterMachine({
    settings: { ...testToasterSettings, ...overrides },
    now: () => clock.now(),
  }).provide({ actors: inertToasterActors });
  return { logic, clock };
}
