/**
 * What the views need from the session machine, as a pure function of its snapshot (Zag's `connect()`
 * idea): answers from tags and context, never from state names. `undefined` (the instant before the
 * session child starts) is a signed-out session with nothing under way.
 */
import type { SnapshotFrom } from 'xstate';
import type { SessionEvent, SessionUser, sessionMachine } from './session.machine';

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

export interface SessionView {
  readonly user: SessionUser | null;
  readonly signedIn: boolean;
  /** A request (session check, sign-in, sign-out, profile save) is under way. */
  readonly busy: boolean;
  /**
   * A sign-in is under way. Not `busy`: the session check that every page starts with is no reason to show
   * the sign-in form as pending (the prerendered page would say "Signing in…" to a visitor who has not).
   */
  readonly signingIn: boolean;
  readonly signingOut: boolean;
  readonly savingProfile: boolean;
  readonly profileSaved: boolean;
  /** The last session failure, in the person's words. */
  readonly error: string | null;
  /** What the profile page shows: its own failure first, else the session's. */
  readonly profileError: string | null;
}

export function sessionView(snapshot: SessionSnapshot | undefined): SessionView {
  const context = snapshot?.context;
  return {
    user: context?.user ?? null,
    signedIn: (context?.user ?? null) !== null,
    busy: snapshot?.hasTag('busy') ?? false,
    signingIn: snapshot?.hasTag('signingIn') ?? false,
    signingOut: snapshot?.hasTag('signingOut') ?? false,
    savingProfile: snapshot?.hasTag('savingProfile') ?? false,
    profileSaved: snapshot?.hasTag('profileSaved') ?? false,
    error: context?.error ?? null,
    profileError: context?.profileError ?? context?.error ?? null,
  };
}

export interface SessionCommands {
  signIn(email: string, password: string): void;
  signOut(): void;
  saveProfile(displayName: string): void;
}

/** The session's commands, sent to its actor (`undefined` before the child starts: they do nothing). */
export function sessionCommands(session: { send(event: SessionEvent): void } | undefined): SessionCommands {
  return {
    signIn: (email, password) => session?.send({ type: 'session.signIn', email, password }),
    signOut: () => session?.send({ type: 'session.signOut' }),
    saveProfile: (displayName) => session?.send({ type: 'session.saveProfile', displayName }),
  };
}
