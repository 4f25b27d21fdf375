/** The session, colour-mode and toaster view modules: what a view reads, from real snapshots of each machine. */
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { colorModeMachine } from '../../machines/colorMode/colorMode.machine';
import { colorModeCommands, colorModeView } from '../../machines/colorMode/colorMode.view';
import { type SessionUser, sessionMachine } from '../../machines/session/session.machine';
import { sessionCommands, sessionView } from '../../machines/session/session.view';
import { toastCommands } from '../../machines/toast/toast.view';
import { toasterCommands, toasterView } from '../../machines/toast/toaster.view';
import { flush } from '../support/appHarness';
import { testToaster } from '../support/toasterHarness';

const demo: SessionUser = { id: 'u1', email: 'demo@example.com', displayName: 'Demo User' };

function startSession(user: SessionUser | null, save: () => Promise<SessionUser>) {
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        fetchSession: fromPromise(async () => user),
        signIn: fromPromise(async () => demo),
        signOut: fromPromise(() => new Promise<void>(() => {})),
        saveProfile: fromPromise(save),
      },
      // No parent to report to here.
      actions: { reportSignedIn: () => {}, reportSignedOut: () => {} },
    }),
  );
  return actor.start();
}

describe('session view', () => {
  it('is signed out with nothing under way before the session starts', () => {
    expect(sessionView(undefined)).toEqual({
      user: null,
      signedIn: false,
      busy: false,
      signingIn: false,
      signingOut: false,
      savingProfile: false,
      profileSaved: false,
      error: null,
      profileError: null,
    });
  });

  it('is busy while the session is checked, then signed in with the user', async () => {
    const actor = startSession(demo, async () => demo);
    // The check is not a sign-in: the sign-in form stays at rest while it runs.
    expect(sessionView(actor.getSnapshot())).toMatchObject({ busy: true, signingIn: false, signedIn: false });
    await flush();
    expect(sessionView(actor.getSnapshot())).toMatchObject({ busy: false, signedIn: true, user: demo });
  });

  it('is signing in only while a sign-in is under way', async () => {
    const actor = startSession(null, async () => demo);
    await flush();
    expect(sessionView(actor.getSnapshot())).toMatchObject({ busy: false, signingIn: false });
    actor.send({ type: 'session.signIn', email: 'demo@example.com', password: 'x' });
    expect(sessionView(actor.getSnapshot())).toMatchObject({ busy: true, signingIn: true });
    await flush();
    expect(sessionView(actor.getSnapshot())).toMatchObject({ signingIn: false, signedIn: true });
  });

  it('tells saving from saved, and shows the profile failure before the session’s', async () => {
    let fail = false;
    const actor = startSession(demo, async () => {
      if (fail) throw new Error('Name taken.');
      return { ...demo, displayName: 'New' };
    });
    await flush();
    actor.send({ type: 'session.saveProfile', displayName: 'New' });
    expect(sessionView(actor.getSnapshot())).toMatchObject({
      savingProfile: true,
      busy: true,
      profileSaved: false,
    });
    await flush();
    expect(sessionView(actor.getSnapshot())).toMatchObject({ savingProfile: false, profileSaved: true });
    fail = true;
    actor.send({ type: 'session.saveProfile', displayName: 'Other' });
    await flush();
    expect(sessionView(actor.getSnapshot())).toMatchObject({
      profileSaved: false,
      profileError: 'Name taken.',
    });
  });

  it('is signing out (and still signed in) until the server answers', async () => {
    const actor = startSession(demo, async () => demo);
    await flush();
    actor.send({ type: 'session.signOut' });
    expect(sessionView(actor.getSnapshot())).toMatchObject({ signingOut: true, signedIn: true, busy: true });
  });
});

describe('colour-mode view', () => {
  function startColorMode(input: { forced?: 'light' | 'dark' | null } = {}) {
    const actor = createActor(
      colorModeMachine.provide({
        actors: {
          watchSystemColorScheme: fromCallback(({ sendBack }) => {
            sendBack({ type: 'system.colorSchemeChanged', dark: true });
          }),
          watchStorage: fromCallback(({ sendBack }) => {
            sendBack({ type: 'storage.changed', value: 'system' });
          }),
        },
        actions: { applyColorMode: () => {}, persistPreference: () => {}, warnCannotForceSystem: () => {} },
      }),
      { input },
    );
    return actor.start();
  }

  it('is the default preference with nothing applied before the machine starts', () => {
    expect(colorModeView(undefined)).toEqual({
      preference: 'system',
      forced: null,
      disabled: false,
      rootAttributes: {},
      settled: false,
    });
  });

  it('shows the preference and the mode it resolves to', () => {
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: null });
    expect(colorModeView(actor.getSnapshot())).toEqual({
      preference: 'system',
      forced: null,
      disabled: false,
      rootAttributes: { 'data-applied': 'dark' },
      settled: true,
    });
  });

  it('is disabled, naming the forced mode, on a page that forces one', () => {
    const actor = startColorMode();
    actor.send({ type: 'route.forced', mode: 'light' });
    expect(colorModeView(actor.getSnapshot())).toEqual({
      preference: 'system',
      forced: 'light',
      disabled: true,
      rootAttributes: { 'data-applied': 'light' },
      settled: true,
    });
    expect(actor.getSnapshot().can({ type: 'colorMode.set', preference: 'dark' })).toBe(false);
  });

  it('on a prerendered forced page, is disabled from the start, and settled once that page settles', () => {
    const actor = startColorMode({ forced: 'dark' });
    expect(colorModeView(actor.getSnapshot())).toMatchObject({
      forced: 'dark',
      disabled: true,
      settled: false,
    });
    actor.send({ type: 'route.forced', mode: 'dark' });
    expect(colorModeView(actor.getSnapshot())).toMatchObject({
      forced: 'dark',
      disabled: true,
      settled: true,
    });
  });
});

describe('toaster view', () => {
  function startToaster() {
    const { logic, clock } = testToaster();
    return { actor: createActor(logic, { clock }).start(), clock };
  }

  it('is empty and running before the toaster starts', () => {
    expect(toasterView(undefined)).toEqual({
      entries: [],
      paused: false,
      empty: true,
      rootAttributes: { 'data-paused': undefined, 'data-empty': true },
    });
  });

  it('follows the toasts shown, the pause and a clear', () => {
    const { actor } = startToaster();
    expect(toasterView(actor.getSnapshot())).toMatchObject({ empty: true, paused: false, entries: [] });

    actor.send({ type: 'toast.add', toast: { id: 'a', title: 'Saved' } });
    actor.send({ type: 'toast.add', toast: { id: 'b', title: 'Archived' } });
    const shown = toasterView(actor.getSnapshot());
    expect(shown.entries.map((entry) => entry.id)).toEqual(['a', 'b']);
    expect(shown).toMatchObject({
      empty: false,
      paused: false,
      rootAttributes: { 'data-paused': undefined, 'data-empty': undefined },
    });

    actor.send({ type: 'viewport.pause', reason: 'pointer' });
    const paused = toasterView(actor.getSnapshot());
    expect(paused).toMatchObject({ paused: true, rootAttributes: { 'data-paused': true } });
    // Pausing changes no entry: the same array, so a view comparing fields does not re-render the list.
    expect(paused.entries).toBe(shown.entries);

    actor.send({ type: 'viewport.resume', reason: 'pointer' });
    expect(toasterView(actor.getSnapshot()).paused).toBe(false);

    actor.send({ type: 'toast.clear' });
    expect(toasterView(actor.getSnapshot())).toMatchObject({
      empty: true,
      entries: [],
      rootAttributes: { 'data-empty': true },
    });
  });

  it('is not empty while the last toast plays its exit, and empty once it is removed', () => {
    const { actor, clock } = startToaster();
    actor.send({ type: 'toast.add', toast: { id: 'a', title: 'Saved' } });
    actor.send({ type: 'toast.dismiss', id: 'a' });
    const closing = toasterView(actor.getSnapshot());
    expect(closing.empty).toBe(false);
    expect(closing.entries.map((entry) => entry.open)).toEqual([false]);
    clock.increment(200);
    expect(toasterView(actor.getSnapshot())).toMatchObject({ empty: true, entries: [] });
  });
});

describe('view commands: what a control asks, as the events the machine takes', () => {
  it('colour mode: choose sends a preference and ignores anything else', () => {
    const sent: unknown[] = [];
    const { choose } = colorModeCommands({ send: (event) => sent.push(event) });
    choose('dark');
    choose('sepia');
    choose(null);
    expect(sent).toEqual([{ type: 'colorMode.set', preference: 'dark' }]);
    expect(() => colorModeCommands(undefined).choose('light')).not.toThrow();
  });

  it('session: sign in, sign out and save the profile', () => {
    const sent: unknown[] = [];
    const commands = sessionCommands({ send: (event) => sent.push(event) });
    commands.signIn('demo@example.com', 'secret');
    commands.saveProfile('Demo');
    commands.signOut();
    expect(sent).toEqual([
      { type: 'session.signIn', email: 'demo@example.com', password: 'secret' },
      { type: 'session.saveProfile', displayName: 'Demo' },
      { type: 'session.signOut' },
    ]);
  });

  it('session: before the session starts, the commands do nothing and throw nothing', () => {
    const commands = sessionCommands(undefined);
    expect(() => {
      commands.signIn('demo@example.com', 'secret');
      commands.saveProfile('Demo');
      commands.signOut();
    }).not.toThrow();
  });

  it('toast: dismiss and the swipe gestures', () => {
    const sent: unknown[] = [];
    const commands = toastCommands({ send: (event) => sent.push(event) });
    commands.swipeStart({ x: 1, y: 2 }, 'touch');
    commands.swipeMove({ x: 3, y: 4 });
    commands.swipeEnd();
    commands.swipeCancel();
    commands.pointerLost();
    commands.dismiss();
    expect(sent).toEqual([
      { type: 'toast.swipeStart', x: 1, y: 2, pointerType: 'touch' },
      { type: 'toast.swipeMove', x: 3, y: 4 },
      { type: 'toast.swipeEnd' },
      { type: 'toast.swipeCancel' },
      { type: 'toast.pointerLost' },
      { type: 'toast.close' },
    ]);
  });

  it('toaster: pause and resume are sent only when the machine would take them', () => {
    const sent: unknown[] = [];
    let can = false;
    const toaster = { getSnapshot: () => ({ can: () => can }), send: (event: unknown) => sent.push(event) };
    const { pause, resume } = toasterCommands(toaster);
    pause('pointer');
    can = true;
    pause('focus');
    resume('focus');
    expect(sent).toEqual([
      { type: 'viewport.pause', reason: 'focus' },
      { type: 'viewport.resume', reason: 'focus' },
    ]);
    expect(() => toasterCommands(undefined).pause('pointer')).not.toThrow();
  });
});
