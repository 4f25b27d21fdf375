import { assign, enqueueActions, fromCallback, setup } from 'xstate';
import { placeholder } from '../../core/placeholder';
import { toastMachine } from './toast.machine';
import {
  autoId,
  closedEntry,
  idOf,
  newestOpen,
  openEntry,
  patchOf,
  show,
  type ToasterContext,
  type ToasterEnvironment,
  type ToasterEvent,
} from './toaster.entries';
import { patchOptions } from './toaster.utils';

export type {
  QueuedToast,
  ToastEntry,
  ToasterContext,
  ToasterEnvironment,
  ToasterEvent,
  ToastRef,
} from './toaster.entries';

/**
 * The toast viewport's brain: shows at most `maxVisible` toasts, one spawned toast actor each, queues the
 * rest without timers, holds every timer while the viewport is paused, and stops each actor once its
 * toast is removed.
 *
 * Events in: `toast.add` / `toast.update` / `toast.dismiss` / `toast.clear` (the API), `viewport.pause` /
 * `viewport.resume` with a reason, `viewport.escape`, and its toasts' reports `toast.closed`/`toast.removed`.
 * Must be provided: actors `listenToToastApi` (always), and, while toasts are shown, `watchWindowFocus`,
 * `watchPageVisibility`, `listenToHotkey`, `listenToEscape`. Configured by `createToasterMachine(environment)`.
 * Tags out: `empty` (nothing shown), `paused` (the viewport holds the timers).
 */
export function createToasterMachine(environment: ToasterEnvironment | null) {
  return setup({
    // Stryker disable next-line ObjectLiteral: `types` only declares the context and event types for TypeScript; XState never reads it at run time, so an empty object changes nothing.
    types: {
      context: {} as ToasterContext,
      events: {} as ToasterEvent,
    },
    actors: {
      toast: toastMachine,
      listenToToastApi: fromCallback<ToasterEvent>(() => placeholder('listenToToastApi')),
      watchWindowFocus: fromCallback<ToasterEvent>(() => placeholder('watchWindowFocus')),
      watchPageVisibility: fromCallback<ToasterEvent>(() => placeholder('watchPageVisibility')),
      listenToHotkey: fromCallback<ToasterEvent>(() => placeholder('listenToHotkey')),
      listenToEscape: fromCallback<ToasterEvent>(() => placeholder('listenToEscape')),
    },
    actions: {
      showToast: assign(({ context, event, spawn }) =>
        show(context, (id, input) => spawn('toast', { id, input }), idOf(event), patchOf(event)),
      ),
      queueToast: assign(({ context, event }) => {
        const sequence = context.sequence + 1;
        const id = idOf(event) ?? autoId(context, sequence);
        return { queue: [...context.queue, { id, options: patchOf(event) }], sequence };
      }),
      updateShownToast: enqueueActions(({ context, event, enqueue }) => {
        const entry = openEntry(context, idOf(event));
        // Stryker disable next-line ConditionalExpression: updateShownToast runs only behind the `isShownId` guard, which has just found an open entry for the same id, so `entry` is always defined here.
        if (entry) enqueue.sendTo(entry.ref, { type: 'toast.update', patch: patchOf(event) });
      }),
      updateQueuedToast: assign(({ context, event }) => ({
        queue: context.queue.map((queued) =>
          queued.id === idOf(event)
            ? { id: queued.id, options: patchOptions(queued.options, patchOf(event)) }
            : queued,
        ),
      })),
      /** Marks it closed at once (so a second Escape closes the next one) and tells the toast. */
      closeToast: enqueueActions(({ context, enqueue }, params: { id: string | undefined }) => {
        const entry = openEntry(context, params.id);
        // Stryker disable next-line ConditionalExpression: closeToast runs only behind `isShownId`, `isFocusedToastOpen` or `hasOpenToast`, each of which has just found an open entry for the id it passes, so `entry` is never undefined and the early return is never taken.
        if (!entry) return;
        enqueue.assign({
          entries: context.entries.map((other) => (other === entry ? { ...other, open: false } : other)),
        });
        enqueue.sendTo(entry.ref, { type: 'toast.close' });
      }),
      dropQueuedToast: assign(({ context, event }) => ({
        queue: context.queue.filter((queued) => queued.id !== idOf(event)),
      })),
      markClosed: assign(({ context, event }) => {
        // Stryker disable next-line ConditionalExpression: markClosed is only the action of the `toast.closed` transition, so the event type check is always true.
        const entry = event.type === 'toast.closed' ? openEntry(context, event.id) : undefined;
        return entry
          ? { entries: context.entries.map((other) => (other === entry ? { ...other, open: false } : other)) }
          : {};
      }),
      /** Stops the removed toast's actor, forgets it, and shows the next queued toast in its place. */
      removeToast: enqueueActions(({ context, event, enqueue }) => {
        // Stryker disable next-line ConditionalExpression: removeToast is only an action of `toast.removed` transitions, so the event type check is always true.
        const entry = event.type === 'toast.removed' ? closedEntry(context, event.id) : undefined;
        // Stryker disable next-line ConditionalExpression: removeToast runs only behind `isLastToast` or `isRemovable`, both of which require `closedEntry(context, event.id)` to exist, so `entry` is always defined here.
        if (!entry) return;
        enqueue.stopChild(entry.ref);
        enqueue.assign(({ context: current, spawn }) => {
          let next: ToasterContext = {
            ...current,
            entries: current.entries.filter((other) => other !== entry),
          };
          // Stryker disable next-line ConditionalExpression: With an empty queue `[first] = next.queue` gives `undefined` and the loop leaves through `if (!first) break`, so also looping on an empty queue does nothing.
          // Stryker disable next-line EqualityOperator: `length >= 0` lets the loop start on an empty queue, where `first` is undefined and `if (!first) break` leaves at once: nothing is shown or changed.
          while (next.queue.length > 0 && next.entries.length < next.settings.maxVisible) {
            const [first, ...rest] = next.queue;
            // Stryker disable next-line ConditionalExpression: The loop condition already requires a non-empty queue, and queued toasts are objects, so `first` is always truthy and the break is never reached.
            if (!first) break;
            next = {
              ...next,
              queue: rest,
              ...show(next, (id, input) => spawn('toast', { id, input }), first.id, first.options),
            };
          }
          return next;
        });
      }),
      clearToasts: enqueueActions(({ context, enqueue }) => {
        for (const entry of context.entries) enqueue.stopChild(entry.ref);
        enqueue.assign({ entries: [], queue: [] });
      }),
      addPauseReason: assign(({ context, event }) =>
        // Stryker disable next-line ConditionalExpression: addPauseReason is only an action of `viewport.pause` transitions, so the event type check is always true (it narrows the type for `event.reason`).
        event.type === 'viewport.pause' && !context.pausedBy.includes(event.reason)
          ? { pausedBy: [...context.pausedBy, event.reason].sort() }
          : {},
      ),
      removePauseReason: assign(({ context, event }) =>
        // Stryker disable next-line ConditionalExpression: removePauseReason is only an action of `viewport.resume` transitions, so the event type check is always true (it narrows the type for `event.reason`).
        event.type === 'viewport.resume'
          ? { pausedBy: context.pausedBy.filter((reason) => reason !== event.reason) }
          : {},
      ),
      /** The toasts' timers: pointer and focus belong to a viewport that is gone; the watchers re-report the rest. */
      forgetPauseReasons: assign({ pausedBy: [] }),
      pauseToasts: enqueueActions(({ context, enqueue }) => {
        for (const entry of context.entries) enqueue.sendTo(entry.ref, { type: 'toast.pause' });
      }),
      resumeToasts: enqueueActions(({ context, enqueue }) => {
        for (const entry of context.entries) enqueue.sendTo(entry.ref, { type: 'toast.resume' });
      }),
    },
    guards: {
      isShownId: ({ context, event }) => openEntry(context, idOf(event)) !== undefined,
      isQueuedId: ({ context, event }) => {
        const id = idOf(event);
        // Stryker disable next-line ConditionalExpression: Queued ids are never undefined (queueToast falls back to `auto-<n>`), so for an undefined id `queue.some(queued => queued.id === id)` is false anyway.
        return id !== undefined && context.queue.some((queued) => queued.id === id);
      },
      hasRoom: ({ context }) => context.entries.length < context.settings.maxVisible,
      isRemovable: ({ context, event }) =>
        // Stryker disable next-line ConditionalExpression: isRemovable is the second candidate after isLastToast; if it passes without a closed entry, removeToast finds no `closedEntry` and returns without effect, so nothing changes.
        // Stryker disable next-line LogicalOperator: The guard runs only on `toast.removed`, so `||` makes it always true; without a closed entry removeToast then finds nothing and returns, so nothing changes.
        event.type === 'toast.removed' && closedEntry(context, event.id) !== undefined,
      isLastToast: ({ context, event }) =>
        // Stryker disable next-line ConditionalExpression: isLastToast guards only a `toast.removed` transition, so the event type check is always true (it narrows the type for `event.id`).
        event.type === 'toast.removed' &&
        closedEntry(context, event.id) !== undefined &&
        context.entries.length === 1 &&
        context.queue.length === 0,
      isFocusedToastOpen: ({ context, event }) =>
        // Stryker disable next-line ConditionalExpression: isFocusedToastOpen guards only the `viewport.escape` transition, so the event type check is always true (it narrows the type for `event.toastId`).
        event.type === 'viewport.escape' && openEntry(context, event.toastId) !== undefined,
      // Stryker disable next-line ConditionalExpression: If no toast is open the transition runs closeToast with `id: undefined`, where `openEntry` finds nothing and closeToast returns without assigning or sending anything.
      hasOpenToast: ({ context }) => newestOpen(context) !== undefined,
      isLastPauseReason: ({ context, event }) =>
        // Stryker disable next-line ConditionalExpression: isLastPauseReason guards only a `viewport.resume` transition, so the event type check is always true (it narrows the type for `event.reason`).
        event.type === 'viewport.resume' &&
        context.pausedBy.length === 1 &&
        context.pausedBy[0] === event.reason,
    },
  }).createMachine({
    id: 'toaster',
    context: () => {
      if (environment === null) {
        throw new Error(
          'The toaster has no settings or clock: provide createToasterMachine({ settings, now }) as `toaster`.',
        );
      }
      return {
        settings: environment.settings,
        now: environment.now,
        entries: [],
        queue: [],
        // Stryker disable next-line ArrayDeclaration: The initial state `idle` runs `forgetPauseReasons` on entry, which sets `pausedBy: []` before the first snapshot, so the initial value is never seen.
        pausedBy: [],
        sequence: 0,
      };
    },
    invoke: { id: 'toastApi', src: 'listenToToastApi' },
    initial: 'idle',
    states: {
      idle: {
        tags: ['empty'],
        entry: 'forgetPauseReasons',
        on: { 'toast.add': { target: 'active', actions: 'showToast' } },
      },
      active: {
        // The world's reasons to pause matter only while toasts are shown; each watcher reports on start.
        invoke: [
          { id: 'windowFocus', src: 'watchWindowFocus' },
          { id: 'pageVisibility', src: 'watchPageVisibility' },
          { id: 'hotkey', src: 'listenToHotkey' },
          { id: 'escape', src: 'listenToEscape' },
        ],
        on: {
          'toast.add': [
            { guard: 'isShownId', actions: 'updateShownToast' },
            { guard: 'isQueuedId', actions: 'updateQueuedToast' },
            { guard: 'hasRoom', actions: 'showToast' },
            { actions: 'queueToast' },
          ],
          'toast.update': [
            { guard: 'isShownId', actions: 'updateShownToast' },
            // Stryker disable next-line StringLiteral: An empty guard name means no guard: a `toast.update` for an id neither shown nor queued then runs updateQueuedToast, which maps the queue onto an equal copy (no queued id matches), so no toast, option or state changes.
            { guard: 'isQueuedId', actions: 'updateQueuedToast' },
          ],
          'toast.dismiss': [
            {
              guard: 'isShownId',
              actions: { type: 'closeToast', params: ({ event }) => ({ id: event.id }) },
            },
            // Stryker disable next-line StringLiteral: An empty guard name means no guard: a `toast.dismiss` for an id neither shown nor queued then runs dropQueuedToast, which filters out nothing and leaves an equal queue, so nothing changes.
            { guard: 'isQueuedId', actions: 'dropQueuedToast' },
          ],
          'toast.clear': { target: 'idle', actions: 'clearToasts' },
          'toast.closed': { actions: 'markClosed' },
          'toast.removed': [
            { guard: 'isLastToast', target: 'idle', actions: 'removeToast' },
            // Stryker disable next-line StringLiteral: An empty guard name means no guard: a `toast.removed` without a closed entry then runs removeToast, which finds no `closedEntry` and returns without stopping, assigning or showing anything.
            { guard: 'isRemovable', actions: 'removeToast' },
          ],
          'viewport.escape': [
            {
              guard: 'isFocusedToastOpen',
              actions: { type: 'closeToast', params: ({ event }) => ({ id: event.toastId ?? undefined }) },
            },
            {
              // Stryker disable next-line StringLiteral: An empty guard name means no guard: Escape with no open toast then runs closeToast with `id: undefined`, where `openEntry` finds nothing and it returns without effect.
              guard: 'hasOpenToast',
              // Stryker disable next-line OptionalChaining: This params function runs only after the `hasOpenToast` guard has found an open toast, so `newestOpen(context)` is never undefined.
              actions: { type: 'closeToast', params: ({ context }) => ({ id: newestOpen(context)?.id }) },
            },
          ],
        },
        initial: 'running',
        states: {
          running: {
            on: { 'viewport.pause': { target: 'paused', actions: ['addPauseReason', 'pauseToasts'] } },
          },
          paused: {
            tags: ['paused'],
            on: {
              'viewport.pause': { actions: 'addPauseReason' },
              'viewport.resume': [
                {
                  guard: 'isLastPauseReason',
                  target: 'running',
                  actions: ['removePauseReason', 'resumeToasts'],
                },
                { actions: 'removePauseReason' },
              ],
            },
          },
        },
      },
    },
  });
}

/**
 * The toaster the app machine names. It has no settings or clock and fails when started: the platform
 * provides `createToasterMachine(...)` (src/platform/toaster.ts), tests provide their own.
 */
export const toasterMachine = createToasterMachine(null);

export type ToasterMachine = typeof toasterMachine;
