/**
 * The freshness region: a page shown with build-time data (a prerendered page, or a navigation that read
 * its `_payload.json`) whose route declares `revalidate` loads its data again in the background, from the
 * loader. Fresh data replaces the old in place (same page key: no remount, no focus move); a 404 means the
 * thing is gone, and the error page appears as a navigation to it would have ended; a 401 means the session
 * has ended (the session child signs out, and the guards run again for the page); any other failure keeps
 * what is shown. A navigation that starts meanwhile cancels the check. A page shown again from memory by Back
 * or Forward (app.navigation.ts) is checked the same way.
 */
import { assign } from 'xstate';
import { titleOnScreen } from './app.navigation';
import { appSetup, type LoadedPage, regionImplementations } from './app.setup';
import { toAppError } from './errorCatalogue';

export const freshnessImplementations = regionImplementations({
  actions: {
    /** Fresh data for the page on screen, in place: same key, so nothing moves focus or announces. */
    refreshData: assign(({ context }, params: { page: LoadedPage }) => ({
      current: context.current
        ? {
            ...context.current,
            data: params.page.data,
            title: params.page.title ?? context.current.title,
            stale: false,
            fromBuild: false,
          }
        : null,
    })),
    markFresh: assign(({ context }) => ({
      current: context.current ? { ...context.current, stale: false } : null,
    })),
    /**
     * The page on screen no longer exists (its data answered 404 when checked again): the error page, as a
     * navigation to it would have ended, counted as a new page so the view moves focus and announces it.
     */
    commitGone: assign(({ context }) => ({
      current: context.current
        ? {
            ...context.current,
            route: null,
            params: {},
            data: undefined,
            stale: false,
            key: context.current.key + 1,
          }
        : null,
    })),
  },
  guards: {
    /** The page on screen shows build-time data that its route wants checked, and no navigation is replacing it. */
    isPageStale: ({ context }) => context.current?.stale === true && context.pending === null,
    isNavigating: ({ context }) => context.pending !== null,
    isGone: (_, { error }: { error: unknown }) =>
      typeof error === 'object' && error !== null && (error as { statusCode?: unknown }).statusCode === 404,
  },
});

export const freshnessRegion = appSetup.extend(freshnessImplementations).createStateConfig({
  initial: 'idle',
  states: {
    idle: { always: { guard: 'isPageStale', target: 'revalidating' } },
    revalidating: {
      always: { guard: 'isNavigating', target: 'idle' },
      invoke: {
        id: 'revalidatePage',
        src: 'revalidatePage',
        input: ({ context }) => {
          const current = context.current;
          // Stryker disable next-line ConditionalExpression: Unreachable: `revalidating` is only entered behind `isPageStale` (`current.stale === true`), and `stale` is only true for a committed success whose route has `revalidate` (route not null); `followFragment` keeps route and stale, and every other change of `current` sets `stale` false.
          // Stryker disable next-line OptionalChaining: Unreachable: `revalidating` is only entered behind `isPageStale` (`current.stale === true`), and `stale` is only true for a committed success whose route has `revalidate` (route not null); `followFragment` keeps route and stale, and every other change of `current` sets `stale` false.
          // Stryker disable next-line StringLiteral: The message of the unreachable throw in the revalidation input (a stale page always has a route); a developer-facing text only.
          if (!current?.route) throw new Error('Only a page on screen can be revalidated.');
          return { route: current.route, params: current.params, fullPath: current.fullPath };
        },
        onDone: {
          target: 'idle',
          actions: [
            { type: 'refreshData', params: ({ event }) => ({ page: event.output }) },
            // A renamed campaign renames the tab too; nothing else of page arrival happens.
            { type: 'showDocumentTitle', params: titleOnScreen },
          ],
        },
        onError: [
          {
            guard: { type: 'isSessionExpired', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: ['markFresh', 'endSession'],
          },
          {
            guard: { type: 'isGone', params: ({ event }) => ({ error: event.error }) },
            target: 'idle',
            actions: [
              {
                type: 'announceOutcome',
                params: ({ context, event }) => ({
                  // Stryker disable next-line OptionalChaining: Unreachable fallback: the `isGone` branch only runs in `revalidating`, entered with a stale page on screen, and no action ever sets a non-null `current` back to null, so `context.current` is never null there.
                  // Stryker disable next-line StringLiteral: Unreachable fallback: the `isGone` branch only runs in `revalidating`, entered with a stale page on screen, and no action ever sets a non-null `current` back to null, so `context.current` is never null there.
                  error: toAppError(event.error, context.current?.fullPath ?? '/'),
                }),
              },
              'commitGone',
            ],
          },
          { target: 'idle', actions: 'markFresh' },
        ],
      },
    },
  },
});
