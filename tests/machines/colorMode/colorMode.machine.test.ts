import { describe, expect, it } from 'vitest';
import { type AnyEventObject, createActor, fromCallback } from 'xstate';
import {
  appliedColorMode,
  type ColorModeContext,
  type ColorModeEvent,
  colorModeMachine,
  isColorModePreference,
} from '../../../machines/colorMode/colorMode.machine';
import { registerPathTests } from '../../support/pathPromises';
import { colorModePromises, colorModeTransitions } from './colorMode.promises';

/** A colour mode whose effects are recorded: what was applied, stored and warned, in order. */
function startColorMode(input: { forced?: 'light' | 'dark' | null } = {}) {
  const applied: string[] = [];
  const stored: string[] = [];
  let warnings = 0;
  const logic = colorModeMachine.provide({
    actors: {
      watchSystemColorScheme: fromCallback(() => () => {}),
      watchStorage: fromCallback(() => () => {}),
    },
    actions: {
      applyColorMode: (_, { value }) => {
        applied.push(value);
      },
      persistPreference: (_, { preference }) => {
        stored.push(preference);
      },
      warnCannotForceSystem: () => {
        warnings += 1;
      },
    },
  });
  const actor = createActor(logic, { input }).start();
  return {
    actor,
    applied,
    stored,
    warnings: () => warnings,
    send: (event: ColorModeEvent) => actor.send(event),
    snapshot: () => actor.getSnapshot(),
  };
}

describe('colour-mode machine', () => {
  it('applies nothing until the first page settles: the boot script already painted the right mode', () => {
    const mode = startColorMode();
    mode.send({ type: 'storage.changed', value: 'dark' });
    mode.send({ type: 'system.colorSchemeChanged', dark: true });
    expect(mode.applied).toEqual([]);
    mode.send({ type: 'route.forced', mode: null });
    expect(mode.applied).toEqual(['dark']);
    expect(mode.snapshot().context.preference).toBe('dark');
  });

  it('knows from its input what a prerendered page it boots on forces, and still applies nothing first', () => {
    const mode = startColorMode({ forced: 'dark' });
    expect(mode.snapshot().context.forced).toBe('dark');
    expect(mode.applied).toEqual([]);
    mode.send({ type: 'route.forced', mode: 'dark' });
    expect(mode.applied).toEqual(['dark']);
    expect(mode.snapshot().hasTag('forced')).toBe(true);
    expect(startColorMode().snapshot().context.forced).toBeNull();
  });

  it('starts from the default preference, system, and follows the OS live', () => {
    const mode = startColorMode();
    mode.send({ type: 'storage.changed', value: null });
    mode.send({ type: 'route.forced', mode: null });
    expect(mode.snapshot().context.preference).toBe('system');
    expect(mode.applied).toEqual(['light']);
    mode.send({ type: 'system.colorSchemeChanged', dark: true });
    expect(mode.applied).toEqual(['light', 'dark']);
    expect(mode.stored).toEqual([]);
  });

  it('stores and applies a chosen preference', () => {
    const mode = startColorMode();
    mode.send({ type: 'route.forced', mode: null });
    mode.send({ type: 'colorMode.set', preference: 'dark' });
    expect(mode.stored).toEqual(['dark']);
    expect(mode.applied.at(-1)).toBe('dark');
    // A fixed preference ignores the OS.
    mode.send({ type: 'system.colorSchemeChanged', dark: false });
    expect(mode.applied.at(-1)).toBe('dark');
  });

  it('repairs a stored value outside the three to the default and rewrites it', () => {
    const mode = startColorMode();
    mode.send({ type: 'storage.changed', value: 'purple' });
    expect(mode.snapshot().context.preference).toBe('system');
    expect(mode.stored).toEqual(['system']);
  });

  it('follows another tab at once, without writing back', () => {
    const mode = startColorMode();
    mode.send({ type: 'route.forced', mode: null });
    mode.send({ type: 'storage.changed', value: 'dark' });
    expect(mode.applied.at(-1)).toBe('dark');
    expect(mode.stored).toEqual([]);
  });

  it('shows a forced page in its mode, refuses a new preference there, and restores the preference on leaving', () => {
    const mode = startColorMode();
    mode.send({ type: 'storage.changed', value: 'light' });
    mode.send({ type: 'route.forced', mode: 'dark' });
    expect(mode.snapshot().hasTag('forced')).toBe(true);
    expect(mode.applied).toEqual(['dark']);
    expect(mode.snapshot().can({ type: 'colorMode.set', preference: 'dark' })).toBe(false);
    mode.send({ type: 'colorMode.set', preference: 'system' });
    mode.send({ type: 'system.colorSchemeChanged', dark: false });
    expect(mode.stored).toEqual([]);
    expect(mode.applied).toEqual(['dark']);
    mode.send({ type: 'route.forced', mode: null });
    expect(mode.snapshot().hasTag('forced')).toBe(false);
    expect(mode.applied).toEqual(['dark', 'light']);
    expect(mode.snapshot().context.preference).toBe('light');
  });

  it('cannot force system: it warns and follows the preference', () => {
    const mode = startColorMode();
    mode.send({ type: 'route.forced', mode: 'system' });
    expect(mode.warnings()).toBe(1);
    expect(mode.snapshot().matches('following')).toBe(true);
    mode.send({ type: 'route.forced', mode: 'light' });
    mode.send({ type: 'route.forced', mode: 'system' });
    expect(mode.warnings()).toBe(2);
    expect(mode.snapshot().matches('following')).toBe(true);
  });

  it('resolves the applied value from forced, preference and OS', () => {
    const base: ColorModeContext = { preference: 'system', systemDark: false, forced: null };
    expect(appliedColorMode(base)).toBe('light');
    expect(appliedColorMode({ ...base, systemDark: true })).toBe('dark');
    expect(appliedColorMode({ ...base, preference: 'light', systemDark: true })).toBe('light');
    expect(appliedColorMode({ ...base, preference: 'light', forced: 'dark' })).toBe('dark');
    expect(isColorModePreference('system')).toBe(true);
    expect(isColorModePreference('System')).toBe(false);
  });
});

describe('colour-mode machine: generated paths', () => {
  const inert = colorModeMachine.provide({
    actors: {
      watchSystemColorScheme: fromCallback(() => () => {}),
      watchStorage: fromCallback(() => () => {}),
    },
    actions: { applyColorMode: () => {}, persistPreference: () => {}, warnCannotForceSystem: () => {} },
  });
  const events: AnyEventObject[] = [
    { type: 'colorMode.set', preference: 'light' },
    { type: 'colorMode.set', preference: 'dark' },
    { type: 'colorMode.set', preference: 'system' },
    { type: 'system.colorSchemeChanged', dark: true },
    { type: 'system.colorSchemeChanged', dark: false },
    { type: 'storage.changed', value: 'dark' },
    { type: 'storage.changed', value: 'system' },
    { type: 'storage.changed', value: null },
    { type: 'storage.changed', value: 'purple' },
    { type: 'route.forced', mode: 'dark' },
    { type: 'route.forced', mode: 'light' },
    { type: 'route.forced', mode: 'system' },
    { type: 'route.forced', mode: null },
  ];
  registerPathTests({
    title: 'colour-mode machine',
    machine: inert,
    events,
    minimumPaths: 20,
    promises: colorModePromises,
    transitions: colorModeTransitions,
  });
});
