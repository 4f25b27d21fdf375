/**
 * What the app's views and its page-arrival effects need from the app machine, as pure functions of a
 * snapshot (or its context). Answers come from tags and context, never from state names.
 */
import type { SnapshotFrom } from 'xstate';
import type { appMachine } from './app.machine';
import type { AppContext } from './app.setup';
import type { CommittedNavigation } from './app.utils';
import { type AppError, statusMessageOf } from './errors';

export type AppSnapshot = SnapshotFrom<typeof appMachine>;

export interface AppView {
  /** No page yet: the boot status shows. */
  readonly booting: boolean;
  /** A navigation is pending (the page on screen stays until it commits). */
  readonly busy: boolean;
  /** And it is taking long: the loading bar shows. */
  readonly slow: boolean;
  /** The page on screen is the first one: it kept the browser's own focus. */
  readonly firstSettle: boolean;
  /** The error page replaces the layout; `null` when none is shown (none, or screened out for a crawler). */
  readonly error: AppError | null;
  /** The committed navigation: the page, its data and its title. */
  readonly current: CommittedNavigation | null;
  /**
   * Path and query, not navigation count or #fragment: re-checking the page on screen (a session change
   * runs the guards again for it) or moving to an anchor must not remount it and lose what was typed.
   */
  readonly pageKey: string;
  readonly documentTitle: string;
}

export function errorDocumentTitle(error: AppError, appName: string): string {
  return `${error.statusCode} - ${statusMessageOf(error)} | ${appName}`;
}

/** The document title for what is on screen: the error page's, the page's, or just the app's name. */
export function documentTitleOf(context: AppContext, shownError: AppError | null): string {
  if (shownError) return errorDocumentTitle(shownError, context.appName);
  const title = context.current?.title;
  return title ? `${title} | ${context.appName}` : context.appName;
}

/** The first settled navigation keeps the browser's own focus and scroll, as a document load does. */
export function isFirstSettle(context: AppContext): boolean {
  return (context.current?.key ?? 0) <= 1;
}

export function shownError(snapshot: AppSnapshot): AppError | null {
  return snapshot.hasTag('error') ? snapshot.context.error : null;
}

export function appView(snapshot: AppSnapshot): AppView {
  const error = shownError(snapshot);
  const location = snapshot.context.current?.location;
  return {
    booting: snapshot.hasTag('booting'),
    busy: snapshot.hasTag('busy'),
    slow: snapshot.hasTag('slow'),
    firstSettle: isFirstSettle(snapshot.context),
    error,
    current: snapshot.context.current,
    pageKey: location ? `${location.pathname}${location.search}` : '',
    documentTitle: documentTitleOf(snapshot.context, error),
  };
}
