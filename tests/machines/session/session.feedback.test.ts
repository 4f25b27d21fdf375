/**
 * The session machine's feedback and fallbacks, beyond tests/machines/session/session.machine.test.ts: the toasts it sends the
 * system's toaster, the wording it falls back on when a failure carries no usable message, which errors count
 * as an ended session, and the placeholders that fail when an effect was not provided.
 */
import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import { isUnauthorized, type SessionUser, sessionMachine } from '../../../machines/session/session.machine';
import { flush } from '../../support/appHarness';
import { startSession } from '../../support/sessionHarness';

const demo: SessionUser = { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' };

describe('session machine: what counts as an ended session', () => {
  it('only an error carrying status 401 does', () => {
    expect(isUnauthorized({ statusCode: 401 })).toBe(true);
    expect(isUnauthorized(Object.assign(new Error('Sign in first.'), { statusCode: 401 }))).toBe(true);
    expect(isUnauthorized({ statusCode: 500 })).toBe(false);
    expect(isUnauthorized(new Error('offline'))).toBe(false);
    expect(isUnauthorized('401')).toBe(false);
  });

  it('answers no, without failing itself, for a rejection with no value at all', () => {
    expect(isUnauthorized(null)).toBe(false);
    expect(isUnauthorized(undefined)).toBe(false);
  });

  it('a profile save rejected with nothing keeps the session and says saving failed', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.saveProfile', displayName: 'Dee' });
    await session.failWith('saveProfile', undefined);
    expect(session.snapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(session.snapshot().context.profileError).toBe('Saving failed.');
  });
});

describe('session machine: wording when a failure has no message of its own', () => {
  it('checking the session: something that is not an Error reads as an unknown error', async () => {
    const session = startSession();
    await session.failWith('fetchSession', { message: 'not an Error' });
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.snapshot().context.error).toBe('Could not check whether you are signed in: unknown error');
    expect(session.toasts).toEqual([
      { title: 'Could not check your session', description: 'Unknown error.' },
    ]);
  });

  it('checking the session: the server message is shown in the toast as it came', async () => {
    const session = startSession();
    await session.failWith('fetchSession', new Error('The server could not be reached.'));
    expect(session.toasts).toEqual([
      { title: 'Could not check your session', description: 'The server could not be reached.' },
    ]);
  });

  it('signing in: an Error with an empty message reads as "Signing in failed."', async () => {
    const session = startSession();
    await session.answer('fetchSession', null);
    session.send({ type: 'session.signIn', email: 'demo@example.com', password: 'wrong' });
    await session.failWith('signIn', new Error(''));
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.snapshot().context.error).toBe('Signing in failed.');
  });

  it('saving the profile: the field and the toast both say "Saving failed."', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.saveProfile', displayName: 'Dee' });
    await session.failWith('saveProfile', new Error(''));
    expect(session.snapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(session.snapshot().context.profileError).toBe('Saving failed.');
    expect(session.toasts).toEqual([{ title: 'Profile not saved', description: 'Saving failed.' }]);
  });

  it('saving the profile: a server message reaches the field and the toast', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.saveProfile', displayName: '' });
    await session.failWith('saveProfile', new Error('Display name must be between 1 and 60 characters.'));
    expect(session.snapshot().context.profileError).toBe('Display name must be between 1 and 60 characters.');
    expect(session.toasts).toEqual([
      { title: 'Profile not saved', description: 'Display name must be between 1 and 60 characters.' },
    ]);
  });

  it('signing out: the field and the toast both say it failed for an unknown error', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.signOut' });
    await session.failWith('signOut', new Error(''));
    expect(session.snapshot().matches('signedIn')).toBe(true);
    expect(session.snapshot().context.error).toBe('Signing out failed: unknown error');
    expect(session.toasts).toEqual([
      { title: 'Still signed in', description: 'Signing out failed: unknown error' },
    ]);
  });

  it('signing out: a server message reaches the toast', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.signOut' });
    await session.failWith('signOut', new Error('Network down'));
    expect(session.toasts).toEqual([
      { title: 'Still signed in', description: 'Signing out failed: Network down' },
    ]);
  });
});

describe('session machine: feedback toasts', () => {
  it('signing in welcomes the person by name', async () => {
    const session = startSession();
    await session.answer('fetchSession', null);
    session.send({ type: 'session.signIn', email: 'demo@example.com', password: 'demo-password' });
    await session.answer('signIn', demo);
    expect(session.toasts).toEqual([{ title: 'Signed in', description: 'Welcome, Demo User.' }]);
  });

  it('signing out says goodbye', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.signOut' });
    await session.answer('signOut', undefined);
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.toasts).toEqual([{ title: 'Signed out', description: 'See you next time.' }]);
  });

  it('an ended session (the app saw a 401) asks the person to sign in again', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.expired' });
    expect(session.toasts).toEqual([
      {
        title: 'Your session has ended',
        description: 'Please sign in again to continue where you left off.',
      },
    ]);
  });

  it('a session found ended on a check again (signed out in another tab) asks the same; one never begun, nothing', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.recheck' });
    await session.answer('fetchSession', null);
    expect(session.toasts).toEqual([
      {
        title: 'Your session has ended',
        description: 'Please sign in again to continue where you left off.',
      },
    ]);
    session.send({ type: 'session.recheck' });
    await session.answer('fetchSession', null);
    expect(session.toasts).toHaveLength(1);
  });

  it('a 401 to its own profile save asks the same', async () => {
    const session = startSession();
    await session.answer('fetchSession', demo);
    session.send({ type: 'session.saveProfile', displayName: 'Dee' });
    await session.failWith('saveProfile', Object.assign(new Error('Sign in first.'), { statusCode: 401 }));
    expect(session.toasts).toEqual([
      {
        title: 'Your session has ended',
        description: 'Please sign in again to continue where you left off.',
      },
    ]);
  });

  it('with no toaster in the system, no toast is sent anywhere and the session carries on', async () => {
    const session = startSession({ withToaster: false });
    await session.failWith('fetchSession', new Error('offline'));
    expect(session.snapshot().status).toBe('active');
    session.send({ type: 'session.signIn', email: 'demo@example.com', password: 'demo-password' });
    await session.answer('signIn', demo);
    expect(session.snapshot().status).toBe('active');
    expect(session.snapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(session.reports).toEqual([false, true]);
    expect(session.delivered).not.toContain('toast.add');
  });

  it('with a toaster, each toast is delivered once, to the toaster only', async () => {
    const session = startSession();
    await session.answer('fetchSession', null);
    session.send({ type: 'session.signIn', email: 'demo@example.com', password: 'demo-password' });
    await session.answer('signIn', demo);
    expect(session.delivered.filter((type) => type === 'toast.add')).toHaveLength(1);
    expect(session.toasts).toHaveLength(1);
  });
});

describe('session machine: effects nobody provided', () => {
  it('checking the session fails, naming fetchSession', async () => {
    const session = startSession({ logic: sessionMachine });
    await flush();
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.snapshot().context.error).toBe(
      'Could not check whether you are signed in: fetchSession is not provided',
    );
  });

  it('signing in fails, naming signIn', async () => {
    const session = startSession({ logic: sessionMachine });
    await flush();
    session.send({ type: 'session.signIn', email: 'demo@example.com', password: 'demo-password' });
    await flush();
    expect(session.snapshot().matches('signedOut')).toBe(true);
    expect(session.snapshot().context.error).toBe('signIn is not provided');
  });

  const signedInOnly = sessionMachine.provide({
    actors: { fetchSession: fromPromise<SessionUser | null>(async () => demo) },
  });

  it('signing out fails, naming signOut', async () => {
    const session = startSession({ logic: signedInOnly });
    await flush();
    session.send({ type: 'session.signOut' });
    await flush();
    expect(session.snapshot().matches('signedIn')).toBe(true);
    expect(session.snapshot().context.error).toBe('Signing out failed: signOut is not provided');
  });

  it('saving the profile fails, naming saveProfile', async () => {
    const session = startSession({ logic: signedInOnly });
    await flush();
    session.send({ type: 'session.saveProfile', displayName: 'Dee' });
    await flush();
    expect(session.snapshot().matches({ signedIn: 'idle' })).toBe(true);
    expect(session.snapshot().context.user).toEqual(demo);
    expect(session.snapshot().context.profileError).toBe('saveProfile is not provided');
  });
});
