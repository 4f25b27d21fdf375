import { assign, setup } from 'xstate';

/** A door that opens for a known badge, alarms on a revoked one, and counts every badge shown. */
export const door = setup({
  types: { context: {} as { shown: number; alarms: number }, events: {} as { type: 'badge'; id: string } },
  guards: {
    isRevoked: ({ event }) => event.id.startsWith('revoked-'),
    isKnown: ({ event }) => event.id.includes('-'),
  },
  actions: {
    countBadge: assign({ shown: ({ context }) => context.shown + 1 }),
    raiseAlarm: assign({ alarms: ({ context }) => context.alarms + 1 }),
  },
}).createMachine({
  context: { shown: 0, alarms: 0 },
  initial: 'closed',
  states: {
    closed: {
      on: {
        badge: [
          { guard: 'isRevoked', target: 'alarm', actions: ['countBadge', 'raiseAlarm'] },
          { guard: 'isKnown', target: 'open', actions: 'countBadge' },
        ],
      },
    },
    open: {},
    alarm: {},
  },
});
