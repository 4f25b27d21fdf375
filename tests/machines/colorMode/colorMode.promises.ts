/** What each state of the colour-mode machine promises, and what its transitions store or warn (../../support/pathPromises.ts). */
import {
  appliedColorMode,
  type ColorModeContext,
  isColorModePreference,
} from '../../../machines/colorMode/colorMode.machine';
import {
  type Moment,
  promise,
  requested,
  type StatePromises,
  type TransitionPromises,
} from '../../support/pathPromises';

const context = (moment: Moment) => moment.context as ColorModeContext;
const appliedNow = (moment: Moment) => appliedColorMode(context(moment));
const appliedThisStep = (moment: Moment) =>
  requested(moment, 'applyColorMode').map((params) => (params as { value: string }).value);

/** Whatever applies is on the page: applied on entry, and again in any step that changed it. */
const showsWhatApplies = (what: string) =>
  promise(`the page shows ${what}`, (moment) => {
    const applied = appliedThisStep(moment);
    const changed =
      moment.entered ||
      moment.previous === null ||
      appliedColorMode(moment.previous.context as ColorModeContext) !== appliedNow(moment);
    return changed
      ? applied.at(-1) === appliedNow(moment)
      : applied.every((value) => value === appliedNow(moment));
  });

const warns = promise(
  'warns that a page cannot force `system`',
  (moment) => requested(moment, 'warnCannotForceSystem').length === 1,
);

export const colorModePromises: StatePromises = {
  colorMode: [
    promise('holds one of light, dark or system as the preference', (moment) =>
      isColorModePreference(context(moment).preference),
    ),
    promise(
      'is tagged `forced` exactly while a page forces a mode',
      ({ snapshot }) => snapshot.hasTag('forced') === snapshot.matches('forced'),
    ),
  ],
  awaitingPage: [
    promise(
      'applies nothing until the first page settles (the boot script painted it)',
      (moment) => appliedThisStep(moment).length === 0,
    ),
    promise('is tagged `awaitingPage`', ({ snapshot }) => snapshot.hasTag('awaitingPage')),
  ],
  following: [
    showsWhatApplies('the preference, `system` resolved'),
    promise('forces nothing', (moment) => context(moment).forced === null),
    promise('lets the user choose a preference', ({ snapshot }) =>
      snapshot.can({ type: 'colorMode.set', preference: 'dark' }),
    ),
  ],
  forced: [
    showsWhatApplies('the page’s forced mode'),
    promise(
      'applies the forced mode, whatever the preference',
      (moment) => appliedNow(moment) === context(moment).forced,
    ),
    promise(
      'lets no preference be chosen',
      ({ snapshot }) => !snapshot.can({ type: 'colorMode.set', preference: 'dark' }),
    ),
  ],
};

export const colorModeTransitions: TransitionPromises = {
  'colorMode on storage.changed [isDamagedStorage]': [
    promise('writes the default over the damaged value', (moment) =>
      requested(moment, 'persistPreference').some(
        (params) => (params as { preference: string }).preference === 'system',
      ),
    ),
  ],
  'colorMode on storage.changed': [
    promise(
      'stores nothing: storage already holds it',
      (moment) => requested(moment, 'persistPreference').length === 0,
    ),
  ],
  'following on colorMode.set': [
    promise(
      'stores the preference chosen',
      (moment) =>
        moment.event.type === 'colorMode.set' &&
        requested(moment, 'persistPreference').some(
          (params) => (params as { preference: string }).preference === moment.event.preference,
        ),
    ),
  ],
  'awaitingPage on route.forced [isForcingSystem]': [warns],
  'following on route.forced [isForcingSystem]': [warns],
  'forced on route.forced [isForcingSystem]': [warns],
};
