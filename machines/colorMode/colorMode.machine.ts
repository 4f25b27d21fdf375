import { assign, fromCallback, raise, setup } from 'xstate';
import { placeholder } from '../../core/placeholder';

/** What the user can choose: a scheme, or "follow the operating system". The one list of them. */
// Stryker disable next-line ArrayDeclaration: `colorModePreferences` is exported but imported nowhere (not by src/, server/, machines/ or tests/), and the machine validates preferences with `isColorModePreference` instead, so changing the array changes nothing anyone can observe; it is a harmless unused export.
// Stryker disable next-line StringLiteral: `colorModePreferences` is exported but imported nowhere (not by src/, server/, machines/ or tests/), and the machine validates preferences with `isColorModePreference` instead, so changing the array changes nothing anyone can observe; it is a harmless unused export.
export const colorModePreferences = ['light', 'dark', 'system'] as const;
/** What the user chose. */
export type ColorModePreference = (typeof colorModePreferences)[number];
/** What is applied to the page: never `system`. */
export type ColorModeValue = 'light' | 'dark';

export const defaultColorModePreference: ColorModePreference = 'system';

export function isColorModePreference(value: unknown): value is ColorModePreference {
  return (colorModePreferences as readonly unknown[]).includes(value);
}

export interface ColorModeContext {
  readonly preference: ColorModePreference;
  /** The operating system's scheme, as last reported; light when it cannot be asked. */
  readonly systemDark: boolean;
  /** The committed page's forced mode, if it forces one. */
  readonly forced: ColorModeValue | null;
}

export type ColorModeEvent =
  /** From the control: the user chose a preference. */
  | { type: 'colorMode.set'; preference: ColorModePreference }
  /** From the OS (matchMedia), and once when watching starts. */
  | { type: 'system.colorSchemeChanged'; dark: boolean }
  /**
   * From storage: what is stored now, read once at start and then whenever another tab writes it.
   * `null` is nothing stored; anything else outside the three preferences is damage to repair.
   */
  | { type: 'storage.changed'; value: string | null }
  /** From the app machine, after every settled navigation: what the page on screen forces (`null`: nothing). */
  | { type: 'route.forced'; mode: ColorModePreference | null }
  /** Raised by the machine itself: the preference or the system scheme changed, so `following` applies. */
  | { type: 'colorMode.inputChanged' };

/** The value the page shows: the forced mode, else the preference, with `system` resolved. */
export function appliedColorMode(context: ColorModeContext): ColorModeValue {
  if (context.forced) return context.forced;
  if (context.preference === 'system') return context.systemDark ? 'dark' : 'light';
  return context.preference;
}

const applyParams = ({ context }: { context: ColorModeContext }) => ({ value: appliedColorMode(context) });
const apply = { type: 'applyColorMode', params: applyParams } as const;

/**
 * The colour mode (spec section 4; behaviour of @nuxtjs/color-mode, see nuxt-behaviours.md section 9).
 *
 * Until the first page settles the machine applies nothing: the boot script in index.html has already put
 * the right class on `<html>`, forced pages included, and applying the bare preference first would flash.
 * Then it either follows the preference (`following`) or shows the page's forced mode (`forced`, tag
 * `forced`), where a new preference cannot be chosen (`snapshot.can` says so) and nothing is stored.
 *
 * Events in: `colorMode.set`, `system.colorSchemeChanged`, `storage.changed`, `route.forced`.
 * Must be provided: actors `watchSystemColorScheme` and `watchStorage` (each reports the current value on
 * start), actions `applyColorMode` ({ value }), `persistPreference` ({ preference }), `warnCannotForceSystem`.
 * Read by the view: `context.preference`, `appliedColorMode(context)`, `context.forced` (set from the input
 * before the first page settles, when the app boots on a prerendered page that forces a mode).
 */
export const colorModeMachine = setup({
  // Stryker disable next-line ObjectLiteral: `types` only carries TypeScript types (context, events, input) for setup(); XState never reads its values at run time, so emptying it changes no behaviour.
  types: {
    context: {} as ColorModeContext,
    events: {} as ColorModeEvent,
    /** `forced`: what the page the app boots on forces (a prerendered page), so the first render shows it. */
    input: {} as { readonly forced?: ColorModeValue | null } | undefined,
  },
  actors: {
    watchSystemColorScheme: fromCallback<ColorModeEvent>(() => placeholder('watchSystemColorScheme')),
    watchStorage: fromCallback<ColorModeEvent>(() => placeholder('watchStorage')),
  },
  actions: {
    applyColorMode: (_, _params: { value: ColorModeValue }) => placeholder('applyColorMode'),
    persistPreference: (_, _params: { preference: ColorModePreference }) => placeholder('persistPreference'),
    warnCannotForceSystem: () => placeholder('warnCannotForceSystem'),
    assignSystemDark: assign({
      systemDark: ({ context, event }) =>
        // Stryker disable next-line ConditionalExpression: The check narrows the event for TypeScript: `assignSystemDark` is referenced only on the root `system.colorSchemeChanged` transition, so the event always has that type and `event.dark` is taken either way.
        event.type === 'system.colorSchemeChanged' ? event.dark : context.systemDark,
    }),
    /** The chosen preference, or what storage holds (nothing stored, or damage, is the default). */
    assignPreference: assign({
      preference: ({ context, event }) => {
        if (event.type === 'colorMode.set') return event.preference;
        // Stryker disable next-line ConditionalExpression: The check narrows the event for TypeScript: `assignPreference` runs only on `colorMode.set` (which returns on the line above) and on `storage.changed`, so whenever this line is reached the event is `storage.changed`.
        if (event.type === 'storage.changed') {
          return isColorModePreference(event.value) ? event.value : defaultColorModePreference;
        }
        return context.preference;
      },
    }),
    announceInputChange: raise({ type: 'colorMode.inputChanged' }),
    assignForced: assign({
      forced: ({ context, event }) =>
        // Stryker disable next-line ConditionalExpression: `assignForced` is referenced only on `route.forced` transitions guarded by `isForcingMode` (awaitingPage, following, forced), so the event is always `route.forced` with mode light or dark and every variant of the condition yields `event.mode`; the check is TypeScript narrowing.
        // Stryker disable next-line LogicalOperator: `assignForced` is referenced only on `route.forced` transitions guarded by `isForcingMode` (awaitingPage, following, forced), so the event is always `route.forced` with mode light or dark and every variant of the condition yields `event.mode`; the check is TypeScript narrowing.
        event.type === 'route.forced' && (event.mode === 'light' || event.mode === 'dark')
          ? event.mode
          : context.forced,
    }),
    clearForced: assign({ forced: null }),
  },
  guards: {
    /** Storage holds something that is no preference (a hand edit, an old format). */
    isDamagedStorage: ({ event }) =>
      // Stryker disable next-line ConditionalExpression: The type check narrows the event for TypeScript: `isDamagedStorage` is used only on the root `storage.changed` transition, so it is always true there and the result depends only on the value checks.
      event.type === 'storage.changed' && event.value !== null && !isColorModePreference(event.value),
    isForcingSystem: ({ event }) => event.type === 'route.forced' && event.mode === 'system',
    isForcingMode: ({ event }) =>
      // Stryker disable next-line ConditionalExpression: The type check narrows the event for TypeScript: `isForcingSystem` is used only on `route.forced` transitions (awaitingPage, following, forced), so it is always true there.
      event.type === 'route.forced' && (event.mode === 'light' || event.mode === 'dark'),
  },
}).createMachine({
  id: 'colorMode',
  context: ({ input }) => ({
    preference: defaultColorModePreference,
    systemDark: false,
    forced: input?.forced ?? null,
  }),
  invoke: [
    { id: 'systemColorScheme', src: 'watchSystemColorScheme' },
    { id: 'storage', src: 'watchStorage' },
  ],
  initial: 'awaitingPage',
  // Everywhere: remember what the world says, and say so. Only `following` also applies it.
  on: {
    'system.colorSchemeChanged': { actions: ['assignSystemDark', 'announceInputChange'] },
    'storage.changed': [
      // Damage: back to the default, and the default written over it.
      {
        guard: 'isDamagedStorage',
        actions: [
          'assignPreference',
          { type: 'persistPreference', params: { preference: defaultColorModePreference } },
          'announceInputChange',
        ],
      },
      { actions: ['assignPreference', 'announceInputChange'] },
    ],
  },
  states: {
    awaitingPage: {
      // The view asks by tag whether the first page has settled (a hydrated control is rebuilt once then).
      tags: ['awaitingPage'],
      on: {
        'route.forced': [
          { guard: 'isForcingSystem', target: 'following', actions: 'warnCannotForceSystem' },
          { guard: 'isForcingMode', target: 'forced', actions: 'assignForced' },
          { target: 'following' },
        ],
      },
    },
    following: {
      entry: ['clearForced', apply],
      on: {
        'colorMode.set': {
          actions: [
            'assignPreference',
            { type: 'persistPreference', params: ({ event }) => ({ preference: event.preference }) },
            apply,
          ],
        },
        'colorMode.inputChanged': { actions: apply },
        'route.forced': [
          { guard: 'isForcingSystem', actions: 'warnCannotForceSystem' },
          { guard: 'isForcingMode', target: 'forced', actions: 'assignForced' },
        ],
      },
    },
    /** The page on screen pins a mode: preference changes wait, and leaving the page restores it. */
    forced: {
      tags: ['forced'],
      entry: apply,
      on: {
        'route.forced': [
          { guard: 'isForcingSystem', target: 'following', actions: 'warnCannotForceSystem' },
          { guard: 'isForcingMode', actions: ['assignForced', apply] },
          { target: 'following' },
        ],
      },
    },
  },
});

export type ColorModeMachine = typeof colorModeMachine;
