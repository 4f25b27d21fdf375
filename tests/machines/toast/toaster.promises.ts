/** What each state of the toaster promises, and which toast its transitions show, close or hold (../../support/pathPromises.ts). */
import type { ToastEntry, ToasterContext } from '../../../machines/toast/toaster.machine';
import {
  type Moment,
  promise,
  running,
  type StatePromises,
  sent,
  type TransitionPromises,
} from '../../support/pathPromises';

const context = (moment: Moment) => moment.context as ToasterContext;
const before = (moment: Moment) => moment.previous?.context as ToasterContext;
const eventId = (moment: Moment): string | undefined => {
  const event = moment.event as { id?: string; toast?: { id?: string }; toastId?: string | null };
  return event.id ?? event.toast?.id ?? event.toastId ?? undefined;
};
const openWith = (entries: readonly ToastEntry[], id: string | undefined) =>
  entries.find((entry) => entry.open && entry.id === id);
const stopped = (moment: Moment) =>
  moment.effects.flatMap((effect) => ('stop' in effect ? [effect.stop] : []));
const toastActors = (moment: Moment) =>
  Object.keys(moment.snapshot.children).filter((id) => id.startsWith('toast#'));

/** Every toast shown was sent `type` (pause or resume). */
const tellsEveryToast = (type: string, said: string) =>
  promise(said, (moment) =>
    context(moment).entries.every((entry) => sent(moment, entry.ref.id).some((event) => event.type === type)),
  );

const closes = (which: string, pick: (moment: Moment) => ToastEntry | undefined) =>
  promise(`closes ${which}: it is told to close and shown as closing`, (moment) => {
    const entry = pick(moment);
    if (!entry) return false;
    const now = context(moment).entries.find((other) => other.key === entry.key);
    return sent(moment, entry.ref.id).some((event) => event.type === 'toast.close') && now?.open === false;
  });

const showsAdded = promise('shows the toast added, open, with a toast actor of its own', (moment) => {
  const entry = openWith(context(moment).entries, eventId(moment));
  return (
    entry !== undefined && moment.effects.some((effect) => 'invoke' in effect && effect.id === entry.ref.id)
  );
});

const removes = promise(
  'stops the closed toast’s actor, and shows the first waiting toast if there is room',
  (moment) => {
    const previous = before(moment);
    const gone = previous.entries.find((entry) => !entry.open && entry.id === eventId(moment));
    if (!gone || !stopped(moment).includes(gone.ref.id)) return false;
    const [next] = previous.queue;
    return next === undefined || openWith(context(moment).entries, next.id) !== undefined;
  },
);

const updatesShown = promise('sends the update to the toast shown, adding none', (moment) => {
  const entry = openWith(before(moment).entries, eventId(moment));
  return (
    entry !== undefined &&
    sent(moment, entry.ref.id).some((event) => event.type === 'toast.update') &&
    context(moment).entries.length === before(moment).entries.length
  );
});

const updatesQueued = promise(
  'updates the waiting toast in place: no toast shown or queued more',
  (moment) =>
    context(moment).queue.length === before(moment).queue.length &&
    context(moment).entries.length === before(moment).entries.length,
);

export const toasterPromises: StatePromises = {
  toaster: [
    promise('has one live toast actor per toast shown, none for waiting ones', (moment) => {
      const actors = toastActors(moment);
      const entries = context(moment).entries;
      return actors.length === entries.length && entries.every((entry) => actors.includes(entry.ref.id));
    }),
    promise('shows at most two toasts, and queues only when both places are taken', (moment) => {
      const { entries, queue } = context(moment);
      return entries.length <= 2 && (queue.length === 0 || entries.length === 2);
    }),
    promise('shows no id twice among open toasts', (moment) => {
      const ids = context(moment)
        .entries.filter((entry) => entry.open)
        .map((entry) => entry.id);
      return new Set(ids).size === ids.length;
    }),
    promise(
      'is tagged `paused` exactly while something holds the viewport',
      (moment) => moment.snapshot.hasTag('paused') === context(moment).pausedBy.length > 0,
    ),
  ],
  idle: [
    promise(
      'shows no toast and waits for none (tag `empty`), holding no pause reason',
      (moment) =>
        moment.snapshot.hasTag('empty') &&
        context(moment).entries.length === 0 &&
        context(moment).queue.length === 0 &&
        context(moment).pausedBy.length === 0,
    ),
  ],
  active: [
    promise(
      'shows a toast',
      (moment) => !moment.snapshot.hasTag('empty') && context(moment).entries.length > 0,
    ),
    promise('watches window focus, page visibility, the hotkey and Escape', (moment) =>
      ['windowFocus', 'pageVisibility', 'hotkey', 'escape'].every(
        (id) => running(moment.snapshot, id) !== undefined,
      ),
    ),
  ],
  'active.running': [
    promise('lets every open toast count down: none is held', (moment) =>
      context(moment).entries.every((entry) => {
        const toast = entry.ref.getSnapshot();
        return !(entry.open && toast.hasTag('shown')) || !toast.hasTag('held');
      }),
    ),
  ],
  'active.paused': [
    promise(
      'holds every open toast, and knows why',
      (moment) =>
        context(moment).pausedBy.length > 0 &&
        context(moment).entries.every((entry) => {
          const toast = entry.ref.getSnapshot();
          return !(entry.open && toast.hasTag('shown')) || toast.hasTag('held');
        }),
    ),
  ],
};

export const toasterTransitions: TransitionPromises = {
  'idle on toast.add': [showsAdded],
  'active on toast.add [hasRoom]': [showsAdded],
  'active on toast.add': [
    promise(
      'queues the toast added: no room',
      (moment) => context(moment).queue.at(-1)?.id === eventId(moment),
    ),
  ],
  'active on toast.add [isShownId]': [updatesShown],
  'active on toast.update [isShownId]': [updatesShown],
  'active on toast.add [isQueuedId]': [updatesQueued],
  'active on toast.update [isQueuedId]': [updatesQueued],
  'active on toast.dismiss [isShownId]': [
    closes('the toast named', (moment) => openWith(before(moment).entries, eventId(moment))),
  ],
  'active on toast.dismiss [isQueuedId]': [
    promise(
      'drops the waiting toast named',
      (moment) => !context(moment).queue.some((queued) => queued.id === eventId(moment)),
    ),
  ],
  'active on toast.clear': [
    promise('stops every toast and forgets the waiting ones', (moment) => {
      const ids = stopped(moment);
      return (
        before(moment).entries.every((entry) => ids.includes(entry.ref.id)) &&
        context(moment).queue.length === 0
      );
    }),
  ],
  'active on toast.removed [isLastToast]': [removes],
  'active on toast.removed [isRemovable]': [removes],
  'active on viewport.escape [isFocusedToastOpen]': [
    closes('the focused toast', (moment) => openWith(before(moment).entries, eventId(moment))),
  ],
  'active on viewport.escape [hasOpenToast]': [
    closes('the newest open toast', (moment) => before(moment).entries.findLast((entry) => entry.open)),
  ],
  'active.running on viewport.pause': [tellsEveryToast('toast.pause', 'holds every toast shown')],
  'active.paused on viewport.resume [isLastPauseReason]': [
    tellsEveryToast('toast.resume', 'lets every toast shown count down again'),
  ],
};
