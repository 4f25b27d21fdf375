/**
 * What the app's views need from the app machine, as pure functions of a snapshot. Answers come from tags
 * and context, never from state names. A view module imports its machine, never the reverse: what the
 * machine needs too (the document title, the first-settle rule) lives in app.navigation.ts.
 */
import type { SnapshotFrom } from 'xstate';
import type { AppEvent, appMachine } from './app.machine';
import { documentTitleOf } from './app.navigation';
import type { CommittedNavigation } from './app.setup';
import type { AppError } from './errorCatalogue';

export type AppSnapshot = SnapshotFrom<typeof appMachine>;

export interface AppView {
  /** No page yet: the boot status shows. */
  readonly booting: boolean;
  /** A page, or the error page instead of it, is on screen (from the first one on). */
  readonly pageShown: boolean;
  /** A navigation is pending (the page on screen stays until it commits). */
  readonly busy: boolean;
  /** And it is taking long: the loading bar shows. */
  readonly slow: boolean;
  /** The error page replaces the layout; `null` when none is shown (none, or screened out for a crawler). */
  readonly error: AppError | null;
  /** The committed navigation: the page, its data and its title. */
  readonly current: CommittedNavigation | null;
  /** The path of the page on screen (a link to it is the current page); `undefined` before the first. */
  readonly currentPath: string | undefined;
  /**
   * Path and query, not navigation count or #fragment: re-checking the page on screen (a session change
   * runs the guards again for it) or moving to an anchor must not remount it and lose what was typed.
   */
  readonly pageKey: string;
  readonly documentTitle: string;
}

export function shownError(snapshot: AppSnapshot): AppError | null {
  return snapshot.hasTag('error') ? snapshot.context.error : null;
}

/** The first page (or the error page instead of it) is on screen: what widgets that can wait, wait for. */
export function isPageShown(snapshot: AppSnapshot): boolean {
  return snapshot.context.current !== null || snapshot.hasTag('error');
}

export function appView(snapshot: AppSnapshot): AppView {
  const error = shownError(snapshot);
  const location = snapshot.context.current?.location;
  return {
    booting: snapshot.hasTag('booting'),
    pageShown: isPageShown(snapshot),
    busy: snapshot.hasTag('busy'),
    slow: snapshot.hasTag('slow'),
    error,
    current: snapshot.context.current,
    currentPath: currentPathOf(snapshot),
    pageKey: location ? `${location.pathname}${location.search}` : '',
    documentTitle: documentTitleOf(snapshot.context, error),
  };
}

/** The path of the page on screen (a link to it is the current page); `undefined` before the first. */
export function currentPathOf(snapshot: AppSnapshot): string | undefined {
  return snapshot.context.current?.location.pathname;
}

export interface PrefetchView {
  /** The paths this build prerendered (from its manifest); `null` when the manifest named none or failed. */
  readonly prerendered: readonly string[] | null;
  readonly buildId: string;
}

/**
 * What link prefetching needs, once the build manifest has had its say (tag `manifestSettled`: loaded or
 * failed); `null` before, when a payload's prefetch must wait or ask for it (`needManifest`).
 */
export function prefetchView(snapshot: AppSnapshot): PrefetchView | null {
  if (!snapshot.hasTag('manifestSettled')) return null;
  return { prerendered: snapshot.context.prerendered, buildId: snapshot.context.build.id };
}

/** What components may ask of the app machine; `useAppCommands()` (src/platform/appActor.ts) hands them out. */
export interface AppCommands {
  /** Open an app path (a link, or code); the machine decides whether and how the URL changes. */
  go(to: string, options?: { readonly replace?: boolean }): void;
  /** A page threw while rendering: the machine shows the error page (or, for a crawler, logs it). */
  reportRenderError(error: AppError): void;
  /** Link prefetching wants the build manifest's word now, not at the preload delay. */
  needManifest(): void;
}

export function appCommands(send: (event: AppEvent) => void): AppCommands {
  return {
    go: (to, options) => send({ type: 'nav.go', to, ...(options?.replace ? { replace: true } : {}) }),
    reportRenderError: (error) => send({ type: 'error.raised', error }),
    needManifest: () => send({ type: 'manifest.needed' }),
  };
}
