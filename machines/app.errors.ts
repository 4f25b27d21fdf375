/**
 * The errors region: an error is screened (a crawler gets no error page, only a log line; `isbot` is asked
 * once), then shown until the next successful navigation clears it.
 */
import { assign } from 'xstate';
import { appSetup } from './app.setup';
import { toAppError } from './errors';

export const errorsRegion = appSetup.createStateConfig({
  initial: 'none',
  on: {
    'error.raised': { target: '.screening', actions: 'assignError' },
    'error.cleared': { target: '.none', actions: 'clearError' },
  },
  states: {
    none: {},
    screening: {
      always: [
        { guard: 'isKnownCrawler', target: 'suppressed' },
        { guard: 'isKnownHuman', target: 'shown' },
      ],
      invoke: {
        id: 'detectCrawler',
        src: 'detectCrawler',
        onDone: [
          {
            guard: { type: 'isCrawler', params: ({ event }) => event.output },
            target: 'suppressed',
            actions: assign({ visitor: 'crawler' }),
          },
          { target: 'shown', actions: assign({ visitor: 'human' }) },
        ],
        // Not knowing is no reason to hide an error from a person.
        onError: { target: 'shown' },
      },
    },
    shown: { tags: ['error'] },
    suppressed: {
      entry: {
        type: 'logSuppressedError',
        params: ({ context }) => ({ error: context.error ?? toAppError('Unknown error') }),
      },
    },
  },
});
