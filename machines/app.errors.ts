/**
 * The errors region: an error is screened (a crawler gets no error page, only a log line; `isbot` is asked
 * once), then shown until the next successful navigation clears it. It is the region that knows what ends
 * up on screen, so it also runs the page-arrival effects: the document title whenever what shows changes,
 * and focus, scroll and announcement when a page or an error page arrives (not for the first page, which
 * keeps the browser's own focus as a document load does).
 */
import { assign } from 'xstate';
import { type AppContext, appSetup } from './app.setup';
import { documentTitleOf } from './app.utils';
import { toAppError } from './errors';

const titleOnScreen = ({ context }: { context: AppContext }) => ({
  title: documentTitleOf(context, null),
});

const errorTitle = ({ context }: { context: AppContext }) => ({
  title: documentTitleOf(context, context.error ?? toAppError('Unknown error')),
});

export const errorsRegion = appSetup.createStateConfig({
  initial: 'none',
  on: {
    'error.raised': { target: '.screening', actions: 'assignError' },
    // A navigation settled on a page: the error page, if any, goes down and the page arrives.
    'error.cleared': [
      {
        guard: 'isLaterPage',
        target: '.none',
        actions: [
          'clearError',
          { type: 'showDocumentTitle', params: titleOnScreen },
          { type: 'arriveAtPage', params: titleOnScreen },
        ],
      },
      { target: '.none', actions: ['clearError', { type: 'showDocumentTitle', params: titleOnScreen }] },
    ],
  },
  states: {
    none: {},
    screening: {
      // Until it is known who sees the error, the screen shows what is committed (nothing, after a failure).
      entry: { type: 'showDocumentTitle', params: titleOnScreen },
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
    shown: {
      tags: ['error'],
      entry: [
        { type: 'showDocumentTitle', params: errorTitle },
        { type: 'arriveAtPage', params: errorTitle },
      ],
    },
    suppressed: {
      entry: {
        type: 'logSuppressedError',
        params: ({ context }) => ({ error: context.error ?? toAppError('Unknown error') }),
      },
    },
  },
});
