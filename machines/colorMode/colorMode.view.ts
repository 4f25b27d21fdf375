/**
 * What the colour-mode control needs from its machine, as a pure function of the snapshot (Zag's
 * `connect()` idea): answers from tags and context, never from state names; and its one command. `undefined` (before the
 * child starts) is the default preference with nothing applied yet.
 */
import type { SnapshotFrom } from 'xstate';
import {
  appliedColorMode,
  type ColorModeEvent,
  type ColorModePreference,
  type ColorModeValue,
  type colorModeMachine,
  defaultColorModePreference,
  isColorModePreference,
} from './colorMode.machine';

export type ColorModeSnapshot = SnapshotFrom<typeof colorModeMachine>;

export interface ColorModeView {
  readonly preference: ColorModePreference;
  /** The mode the page on screen forces; `null` when it forces none. */
  readonly forced: ColorModeValue | null;
  /** The choice cannot be made here: the page forces a mode (the machine would not take it). */
  readonly disabled: boolean;
  /** What the control's root spreads: the mode applied to the page, for styling and tests. */
  readonly rootAttributes: { readonly 'data-applied'?: ColorModeValue };
  /** The first page has settled: the stored preference has been read and is applied. */
  readonly settled: boolean;
}

export function colorModeView(snapshot: ColorModeSnapshot | undefined): ColorModeView {
  // The context, not the `forced` tag: on a prerendered forced page the machine knows the mode from its input
  // before that page settles, so the server's HTML and the hydrated control agree.
  const forced = snapshot?.context.forced ?? null;
  return {
    preference: snapshot?.context.preference ?? defaultColorModePreference,
    forced,
    disabled: forced !== null,
    rootAttributes: snapshot ? { 'data-applied': appliedColorMode(snapshot.context) } : {},
    settled: snapshot !== undefined && !snapshot.hasTag('awaitingPage'),
  };
}

export interface ColorModeCommands {
  /** The user picked a preference; anything that is not one (a control's stray value) is ignored. */
  choose(preference: string | null): void;
}

/** The control's command, sent to the colour-mode actor (`undefined` before the child starts: nothing). */
export function colorModeCommands(
  colorMode: { send(event: ColorModeEvent): void } | undefined,
): ColorModeCommands {
  return {
    choose: (preference) => {
      if (isColorModePreference(preference)) colorMode?.send({ type: 'colorMode.set', preference });
    },
  };
}
