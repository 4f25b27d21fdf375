/** What each state of the session machine promises, and the toasts its transitions send (../../support/pathPromises.ts). */
import type { SessionContext } from '../../../machines/session/session.machine';
import {
  type Moment,
  promise,
  requested,
  running,
  type StatePromises,
  type TransitionPromises,
} from '../../support/pathPromises';

const context = (moment: Moment) => moment.context as SessionContext;

/** A toast with this title was sent (the inert session records `notify` with the toast). */
const toasts = (title: string) =>
  promise(`the toast "${title}" is sent`, (moment) =>
    requested(moment, 'notify').some((toast) => (toast as { title?: string }).title === title),
  );

const reportsOnEntry = (action: 'reportSignedIn' | 'reportSignedOut', said: string) =>
  promise(
    `tells the app ${said} on entry`,
    (moment) => !moment.entered || requested(moment, action).length === 1,
  );

const busyWhileItsOwnRequest = promise(
  'shows as busy exactly while a request of the person’s own runs (a quiet re-check is none)',
  ({ snapshot }) =>
    snapshot.hasTag('busy') ===
    (snapshot.matches('checking') ||
      snapshot.matches('signingIn') ||
      snapshot.matches('signingOut') ||
      snapshot.matches({ signedIn: 'saving' })),
);

const settledWhenKnown = promise(
  'is settled exactly when it knows who is signed in',
  ({ snapshot }) =>
    snapshot.hasTag('settled') === (snapshot.matches('signedIn') || snapshot.matches('signedOut')),
);

const noSaveRuns = promise(
  'no profile save runs',
  ({ snapshot }) => running(snapshot, 'saveProfile') === undefined,
);

export const sessionPromises: StatePromises = {
  session: [busyWhileItsOwnRequest, settledWhenKnown],
  checking: [
    promise(
      'asks the server who is signed in',
      ({ snapshot }) => running(snapshot, 'fetchSession') !== undefined,
    ),
    promise('knows no user yet', (moment) => context(moment).user === null),
  ],
  signedOut: [
    promise(
      'shows nobody signed in, or says why it could not tell',
      (moment) => context(moment).user === null || context(moment).error !== null,
    ),
    reportsOnEntry('reportSignedOut', 'that nobody is signed in'),
  ],
  rechecking: [
    promise(
      'asks the server again, quietly: not busy',
      ({ snapshot }) => running(snapshot, 'recheckSession') !== undefined && !snapshot.hasTag('busy'),
    ),
    promise(
      'keeps the user it had on screen meanwhile',
      (moment) =>
        !moment.entered ||
        context(moment).user === (moment.previous?.context as SessionContext | undefined)?.user,
    ),
  ],
  signingIn: [
    promise('sends the credentials typed', (moment) => {
      const input = running(moment.snapshot, 'signIn');
      if (!input) return false;
      if (moment.event.type !== 'session.signIn') return !moment.entered;
      return input.email === moment.event.email && input.password === moment.event.password;
    }),
    promise('has cleared the last error', (moment) => context(moment).error === null),
  ],
  signedIn: [
    promise('shows the user signed in', (moment) => context(moment).user !== null),
    reportsOnEntry('reportSignedIn', 'that someone is signed in'),
  ],
  'signedIn.idle': [noSaveRuns],
  'signedIn.saving': [
    promise('saves the display name typed', (moment) => {
      const input = running(moment.snapshot, 'saveProfile');
      if (!input) return false;
      return moment.event.type !== 'session.saveProfile' || input.displayName === moment.event.displayName;
    }),
    promise('has cleared the last profile error', (moment) => context(moment).profileError === null),
  ],
  'signedIn.saved': [
    promise('says the profile is saved (tag profileSaved)', ({ snapshot }) =>
      snapshot.hasTag('profileSaved'),
    ),
    noSaveRuns,
  ],
  signingOut: [
    promise(
      'asks the server to sign out, the user still shown',
      (moment) => running(moment.snapshot, 'signOut') !== undefined && context(moment).user !== null,
    ),
  ],
};

const endedToast = toasts('Your session has ended');

export const sessionTransitions: TransitionPromises = {
  'checking on xstate.error.actor.fetchSession': [toasts('Could not check your session')],
  'signingIn on xstate.done.actor.signIn': [toasts('Signed in')],
  'signingIn on xstate.error.actor.signIn': [
    promise('keeps the server’s reason', (moment) => context(moment).error !== null),
  ],
  'signedIn on session.expired': [endedToast],
  'rechecking on xstate.done.actor.recheckSession [wasSignedIn]': [endedToast],
  'rechecking on xstate.error.actor.recheckSession [wasSignedIn]': [
    promise('sends no toast: nothing changed', (moment) => requested(moment, 'notify').length === 0),
  ],
  'signedIn.saving on xstate.done.actor.saveProfile': [toasts('Profile saved')],
  'signedIn.saving on xstate.error.actor.saveProfile [isUnauthorized]': [
    endedToast,
    promise('shows no save error', (moment) => context(moment).profileError === null),
  ],
  'signedIn.saving on xstate.error.actor.saveProfile': [
    toasts('Profile not saved'),
    promise('keeps the reason beside the form', (moment) => context(moment).profileError !== null),
  ],
  'signingOut on xstate.done.actor.signOut': [toasts('Signed out')],
  'signingOut on xstate.error.actor.signOut': [toasts('Still signed in')],
};
