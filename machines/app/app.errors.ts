/**
 * The errors region: an error is screened (a crawler gets no error page, only a log line; `isbot` is asked
 * once), then shown until the next successful navigation clears it. An error page arrives as a page does
 * (title, focus, scroll, announcement); the page that clears it arrives through the navigation region.
 */
import { assign } from 'xstate';
import { placeholder } from '../../core/placeholder';
import { arrivalOf, documentTitleOf, titleOnScreen } from './app.navigation';
import type { Arrival } from './app.setup';
import { type AppContext, appSetup, regionImplementations } from './app.setup';
import { type AppError, toAppError } from './errorCatalogue';

export const errorsImplementations = regionImplementations({
  actions: {
    logSuppressedError: (_, _params: { error: AppError }) => placeholder('logSuppressedError'),
    // Stryker disable next-line ConditionalExpression: `assignError` is only run by the `error.raised` transition of the errors region, so the event-type check is always true where it runs.
    assignError: assign({ error: ({ event }) => (event.type === 'error.raised' ? event.error : null) }),
    clearError: assign({ error: null }),
  },
  guards: {
    isKnownCrawler: ({ context }) => context.visitor === 'crawler',
    isKnownHuman: ({ context }) => context.visitor === 'human',
    isCrawler: (_, isCrawler: boolean) => isCrawler,
  },
});

const errorTitle = ({ context }: { context: AppContext }) => ({
  // Stryker disable next-line StringLiteral: Unreachable and invisible: `shown` is only reached through `screening`, entered only by `error.raised`, whose `assignError` stores the event's error (`announceOutcome` raises it only with one, the view sends `toAppError(...)`); besides, `documentTitleOf` uses only the status code and status message, not this message text.
  title: documentTitleOf(context, context.error ?? toAppError('Unknown error')),
});

/**
 * An error page arrives as a new page even when it is the document's first: it replaced the boot status, so
 * focus and the live region say what happened. Back or Forward to one returns to where the visitor was.
 */
const errorArrival = ({ context }: { context: AppContext }): Arrival => {
  const arrival = arrivalOf(context, errorTitle({ context }).title);
  return arrival.kind === 'first' ? { ...arrival, kind: 'new' } : arrival;
};

export const errorsRegion = appSetup.extend(errorsImplementations).createStateConfig({
  initial: 'none',
  on: {
    'error.raised': { target: '.screening', actions: 'assignError' },
    // A navigation settled on a page: the error page, if any, goes down (the page's arrival is navigation's).
    'page.settled': { target: '.none', actions: 'clearError' },
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
        { type: 'arriveAtPage', params: errorArrival },
      ],
    },
    suppressed: {
      entry: {
        type: 'logSuppressedError',
        // Stryker disable next-line StringLiteral: Unreachable: `suppressed` is only reached through `screening`, entered only by `error.raised` whose `assignError` stores a non-null error (`announceOutcome` raises it only with one, the view's ErrorBoundary sends `toAppError(...)`), and the error is cleared only on `page.settled`, which leaves to `none`.
        params: ({ context }) => ({ error: context.error ?? toAppError('Unknown error') }),
      },
    },
  },
});
