import { describe, expect, it } from 'vitest';
import { type AnyEventObject, type AnyMachineSnapshot, fromPromise, type NonReducibleUnknown } from 'xstate';
import {
  type Credentials,
  type SessionUser,
  sessionMachine,
} from '../../../machines/session/session.machine';
import { registerPathTests } from '../../support/pathPromises';
import { startSession as startTestSession } from '../../support/sessionHarness';
import { sessionPromises, sessionTransitions } from './session.promises';

const demo: SessionUser = { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' };

/** A session whose requests the test answers; no toaster in its system (tests/machines/session/session.feedback.test.ts has one). */
function startSession() {
  return startTestSession({ withToaster: false });
}

describe('session machine', () => {
  it('starts by asking the server who is signed in, and reports the answer', async () => {
    const session = startSession();
    expect(session.snapshot().hasTag('busy')).toBe(true);
    await session.answer('fetchSession', demo);
    expect(session.snapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(session.snapshot().context.user).toEqual(demo);
    expect(session.reports).toEqual([true]);
  });

  it('is signed out, with a readable reason, when the server cannot be asked', async () => {
    const session = startSession();
    await session.fail('fetchSession', 'The server could not be reached.');
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.snapshot().context.error).toBe(
      'Could not check whether you are signed in: The server could not be reached.',
    );
    expect(session.reports).toEqual([false]);
  });

  it('keeps the server message when signing in fails, and clears it on the next try', async () => {
    const session = startSession();
    await session.answer('fetchSession', null);
    session.send({ type: 'session.signIn', email: 'demo@example.com', password: 'wrong' });
    expect(session.snapshot().matches('signingIn')).toBe(true);
    await session.fail('signIn', 'Incorrect email or password');
    expect(session.snapshot().context.error).toBe('Incorrect email or password');
    session.send({ type: 'session.signIn', email: 'demo@example.com', password: 'demo-password' });
    expect(session.snapshot().context.error).toBeNull();
    await session.answer('signIn', demo);
    expect(session.snapshot().context.user).toEqual(demo);
    expect(session.reports).toEqual([false, false, true]);
  });

  it('saves the profile and shows the saved user', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.saveProfile', displayName: 'Dee' });
    expect(session.snapshot().matches({ signedIn: 'saving' })).toBe(true);
    await session.answer('saveProfile', { ...demo, displayName: 'Dee' });
    expect(session.snapshot().matches({ signedIn: 'saved' })).toBe(true);
    expect(session.snapshot().context.user?.displayName).toBe('Dee');
  });

  it('stays signed in, saying why, when signing out fails', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.signOut' });
    await session.fail('signOut', 'Network down');
    expect(session.snapshot().matches('signedIn')).toBe(true);
    expect(session.snapshot().context.error).toBe('Signing out failed: Network down');
  });
});

describe('session machine: a session that ended on the server', () => {
  it('the app telling it of a 401 signs it out and reports that', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.expired' });
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.snapshot().context.user).toBeNull();
    expect(session.reports).toEqual([true, false]);
  });

  it('a 401 to its own profile save ends the session rather than showing a save error (regression)', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.saveProfile', displayName: 'Dee' });
    await session.failWith('saveProfile', Object.assign(new Error('Sign in first.'), { statusCode: 401 }));
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.snapshot().context.profileError).toBeNull();
    expect(session.reports).toEqual([true, false]);
  });
});

describe('session machine: checked again (a page back from the back/forward cache)', () => {
  it('stays signed in when the server still knows the session, saying nothing, the user on screen throughout', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.recheck' });
    expect(session.snapshot().matches('rechecking')).toBe(true);
    expect(session.snapshot().hasTag('busy')).toBe(false);
    expect(session.snapshot().context.user).toEqual(demo);
    await session.answer('fetchSession', demo);
    expect(session.snapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(session.reports).toEqual([true, true]);
  });

  it('signs out, and reports it, when the session ended meanwhile (signed out in another tab)', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.recheck' });
    await session.answer('fetchSession', null);
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.snapshot().context.user).toBeNull();
    expect(session.reports).toEqual([true, false]);
  });

  it('signs in when someone signed in meanwhile, and changes nothing when the server cannot be asked', async () => {
    const session = startSession();
    await session.answer('fetchSession', null);
    session.send({ type: 'session.recheck' });
    await session.fail('fetchSession', 'offline');
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.snapshot().context.error).toBeNull();
    session.send({ type: 'session.recheck' });
    await session.answer('fetchSession', demo);
    expect(session.snapshot().context.user).toEqual(demo);
    session.send({ type: 'session.recheck' });
    await session.fail('fetchSession', 'offline');
    expect(session.snapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(session.snapshot().context.user).toEqual(demo);
    expect(session.reports).toEqual([false, false, true, true]);
  });

  it('does not ask while a request of the person’s own is under way (saving the profile)', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.saveProfile', displayName: 'Dee' });
    session.send({ type: 'session.recheck' });
    expect(session.snapshot().matches({ signedIn: 'saving' })).toBe(true);
    await session.answer('saveProfile', { ...demo, displayName: 'Dee' });
    session.send({ type: 'session.recheck' });
    expect(session.snapshot().matches('rechecking')).toBe(true);
  });
});

describe('session machine: generated paths', () => {
  const never = <T, I = NonReducibleUnknown>() => fromPromise<T, I>(() => new Promise<T>(() => {}));
  // Reports to a parent are not under test here; the walk has no parent to send them to. With no toaster in
  // its system, `notify` is recorded with the toast it would send (session.feedback.test.ts sends it for real).
  const inert = sessionMachine.provide({
    actors: {
      fetchSession: never<SessionUser | null>(),
      signIn: never<SessionUser, Credentials>(),
      signOut: never<void>(),
      saveProfile: never<SessionUser, { displayName: string }>(),
    },
    actions: { reportSignedIn: () => {}, reportSignedOut: () => {}, notify: () => {} },
  });
  const events: AnyEventObject[] = [
    { type: 'xstate.done.actor.fetchSession', output: demo },
    { type: 'xstate.done.actor.fetchSession', output: null },
    { type: 'xstate.error.actor.fetchSession', error: new Error('offline') },
    { type: 'session.signIn', email: 'demo@example.com', password: 'demo-password' },
    { type: 'xstate.done.actor.signIn', output: demo },
    { type: 'xstate.error.actor.signIn', error: new Error('Incorrect email or password') },
    { type: 'session.saveProfile', displayName: 'Dee' },
    { type: 'xstate.done.actor.saveProfile', output: { ...demo, displayName: 'Dee' } },
    {
      type: 'xstate.error.actor.saveProfile',
      error: new Error('Display name must be between 1 and 60 characters.'),
    },
    {
      type: 'xstate.error.actor.saveProfile',
      error: Object.assign(new Error('Sign in first.'), { statusCode: 401 }),
    },
    { type: 'session.expired' },
    { type: 'session.signOut' },
    { type: 'xstate.done.actor.signOut' },
    { type: 'xstate.error.actor.signOut', error: new Error('offline') },
    { type: 'session.recheck' },
    { type: 'xstate.done.actor.recheckSession', output: demo },
    { type: 'xstate.done.actor.recheckSession', output: null },
    { type: 'xstate.error.actor.recheckSession', error: new Error('offline') },
  ];
  const serializeState = (snapshot: AnyMachineSnapshot) =>
    JSON.stringify([snapshot.value, snapshot.context.error !== null, snapshot.context.profileError !== null]);

  registerPathTests({
    title: 'session machine',
    machine: inert,
    events,
    serializeState,
    minimumPaths: 15,
    promises: sessionPromises,
    transitions: sessionTransitions,
  });
});
