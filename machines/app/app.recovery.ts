/**
 * The navigation region's recoveries: a page chunk that fails to load (a newer build reloads the page, once
 * per path per reload-guard window; the same build retries the import once), and a pending update that turns
 * the next navigation into a document load. app.navigation.ts places these states in its region.
 */

import { placeholder } from '../../core/placeholder';
import { toFullPath } from '../../core/routes';
import { appSetup, pendingOf, type ReloadClaim, regionImplementations } from './app.setup';
import { commitLoaded, failWith, loadFailure, loadInput, targetOf } from './app.steps';

export const recoveryImplementations = regionImplementations({
  actions: {
    loadDocument: (_, _params: { url: string }) => placeholder('loadDocument'),
  },
  guards: {
    isReloadGranted: (_, claim: ReloadClaim) => claim === 'granted',
  },
});

const recoverySetup = appSetup.extend(recoveryImplementations);

export const recoveryStates = {
  /** A newer build exists: load this navigation's target as a document, unless the reload guard says not again. */
  reloadingForUpdate: recoverySetup.createStateConfig({
    tags: ['busy'],
    invoke: {
      id: 'claimUpdateReload',
      src: 'claimReload',
      input: targetOf,
      onDone: [
        { guard: { type: 'isReloadGranted', params: ({ event }) => event.output }, target: 'leaving' },
        { target: 'loading' },
      ],
      onError: { target: 'loading' },
    },
  }),
  /** A page chunk failed: ask which build is current before deciding between a reload and a retry. */
  recovering: recoverySetup.createStateConfig({
    tags: ['busy'],
    invoke: {
      id: 'checkBuildAfterChunkError',
      src: 'fetchLatestBuild',
      onDone: [
        {
          guard: { type: 'isNewerBuild', params: ({ event }) => ({ latest: event.output }) },
          target: 'claimingReload',
        },
        { target: 'retrying' },
      ],
      onError: { target: 'retrying' },
    },
  }),
  /** The same build (or no answer): the chunk should still exist, so try the import once more. */
  retrying: recoverySetup.createStateConfig({
    tags: ['busy'],
    invoke: {
      id: 'retryPage',
      src: 'loadPage',
      input: loadInput,
      onDone: { target: 'idle', actions: commitLoaded },
      onError: { target: 'idle', actions: failWith(loadFailure) },
    },
  }),
  /** A newer build: reload the target, at most once per path per window; otherwise the error page. */
  claimingReload: recoverySetup.createStateConfig({
    tags: ['busy'],
    invoke: {
      id: 'claimChunkReload',
      src: 'claimReload',
      input: targetOf,
      onDone: [
        { guard: { type: 'isReloadGranted', params: ({ event }) => event.output }, target: 'leaving' },
        { target: 'idle', actions: failWith(({ context }) => pendingOf(context).failure) },
      ],
      onError: { target: 'idle', actions: failWith(({ context }) => pendingOf(context).failure) },
    },
  }),
  /** The document is being replaced; nothing more happens here. */
  leaving: recoverySetup.createStateConfig({
    tags: ['busy'],
    entry: { type: 'loadDocument', params: ({ context }) => ({ url: toFullPath(pendingOf(context).to) }) },
  }),
};
