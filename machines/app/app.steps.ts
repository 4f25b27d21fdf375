/**
 * Pieces of navigation transitions that the navigation region and its recoveries (app.recovery.ts) share:
 * the inputs of the page loader and the reload guard, and the actions that settle a navigation on a page or
 * on an error page.
 */

import { isPrerendered } from '../../core/payload';
import { toFullPath } from '../../core/routes';
import { type AppContext, type LoadedPage, pendingOf } from './app.setup';
import { addressBarUpdate, arrivalOf, documentTitleOf } from './app.utils';
import { type AppError, toAppError } from './errors';

export const addressBarParams = ({ context }: { context: AppContext }) =>
  addressBarUpdate(pendingOf(context), context.current);

export const targetOf = ({ context }: { context: AppContext }) => ({
  path: toFullPath(pendingOf(context).to),
});

type Args = { context: AppContext; event: unknown };

/** Settle on an error page: the failed target's URL goes in the address bar, so Back returns from it. */
export function failWith(error: (args: Args) => AppError | null) {
  // The error is read before `commit` clears the pending navigation; a raised event is handled after this step anyway.
  return [
    { type: 'updateAddressBar', params: addressBarParams },
    { type: 'announceOutcome', params: (args: Args) => ({ error: error(args) }) },
    { type: 'commit', params: { page: { data: undefined }, failed: true } },
  ] as const;
}

export const loadInput = ({ context }: { context: AppContext }) => {
  const pending = pendingOf(context);
  if (!pending.match) throw new Error('Only a matched route can be loaded.');
  const input = {
    route: pending.match.route.name,
    params: pending.match.params,
    fullPath: toFullPath(pending.to),
  };
  // A payload is the path's alone: a page with a query (`/?after=…`) asks its loader.
  return pending.to.search === '' && isPrerendered(pending.to.pathname, context.prerendered)
    ? { ...input, payload: { path: pending.to.pathname, buildId: context.build.id } }
    : input;
};

export const commitLoaded = [
  { type: 'updateAddressBar', params: addressBarParams },
  { type: 'announceOutcome', params: { error: null } },
  {
    type: 'commit',
    params: ({ event }: { event: { output: LoadedPage } }) => ({ page: event.output, failed: false }),
  },
] as const;

export const loadFailure = ({ context, event }: { context: AppContext; event: unknown }) =>
  toAppError((event as { error?: unknown }).error, toFullPath(pendingOf(context).to));

/** The title of what is on screen when no error page is up (a page, or nothing yet). */
export const titleOnScreen = ({ context }: { context: AppContext }) => ({
  title: documentTitleOf(context, null),
});

/** How the page on screen arrives (first, new, or returned to), with its title. */
export const arrivalOnScreen = ({ context }: { context: AppContext }) =>
  arrivalOf(context, documentTitleOf(context, null));
