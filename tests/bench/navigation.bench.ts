import { describe, test } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { LoadedPage, LoadPageInput, ReloadClaim } from '../../machines/app/app.machine';
import { inertApp, testInput, testManifest } from '../support/appHarness';

/**
 * The machine's own cost per navigation: the inert app of the tests, with page loads and build checks that
 * answer at once, so only matching, guards and commits count.
 */
const instant = inertApp.provide({
  actors: {
    loadPage: fromPromise<LoadedPage, LoadPageInput>(async () => ({ data: null })),
    detectCrawler: fromPromise(async () => false),
    fetchManifest: fromPromise<unknown, { buildId: string }>(async () => testManifest),
    fetchLatestBuild: fromPromise<unknown>(async () => ({ id: testInput.buildId, timestamp: 1 })),
    claimReload: fromPromise<ReloadClaim, { path: string }>(async () => 'denied'),
  },
});

const targets = [
  '/',
  '/campaign/1',
  '/home',
  '/login?redirect=%2Fprofile',
  '/campaign/components/info',
  '/no/such/page',
];

describe('app machine', () => {
  test('1,000 navigations (signed in, guards and redirects included)', async ({ bench }) => {
    await bench('1,000 navigations', async () => {
      const actor = createActor(instant, { input: testInput }).start();
      actor.send({ type: 'session.changed', signedIn: true });
      for (let i = 0; i < 1000; i += 1) {
        actor.send({ type: 'nav.go', to: targets[i % targets.length] as string });
        await Promise.resolve();
        await Promise.resolve();
      }
      actor.stop();
    }).run();
  });
});
