// The bridge between React and the app actor (src/platform/appActor.ts) where it holds logic of its own: the build
// manifest as link prefetching waits for it.
import { describe, expect, it } from 'vitest';
import { manifestSourceOf } from '../../src/platform/appActor';
import { flush, startApp, testManifest } from '../support/appHarness';

/** Settles `promise` into a plain record, so a test can look at it before and after. */
function outcome<T>(promise: Promise<T>) {
  const record: { settled: boolean; value?: T } = { settled: false };
  void promise.then((value) => Object.assign(record, { settled: true, value }));
  return record;
}

describe('the manifest source', () => {
  it('has nothing before the manifest has loaded, and waits for it without asking', async () => {
    const app = await startApp({ manifest: 'manual' });
    const source = manifestSourceOf(app.actor);
    expect(source.settled()).toBeUndefined();
    const waiting = outcome(source.whenSettled(false));
    await flush();
    expect(app.manifests).toHaveLength(0);
    expect(waiting.settled).toBe(false);
    // At the preload delay the manifest comes as it would anyway.
    app.clock.increment(1_000);
    await app.answerManifest({ ...testManifest, prerendered: ['/campaign/1'] });
    expect(waiting).toEqual({ settled: true, value: { prerendered: ['/campaign/1'], buildId: 'build-1' } });
    expect(source.settled()).toEqual({ prerendered: ['/campaign/1'], buildId: 'build-1' });
  });

  it('asks for the manifest at once when waiting now, and settles on its failure too', async () => {
    const app = await startApp({ manifest: 'manual' });
    const waiting = outcome(manifestSourceOf(app.actor).whenSettled(true));
    await flush();
    expect(app.manifests).toHaveLength(1);
    await app.failManifest(new Error('offline'));
    expect(waiting).toEqual({ settled: true, value: { prerendered: null, buildId: 'build-1' } });
  });

  it('answers at once, asking nothing, once the manifest is in', async () => {
    const app = await startApp();
    const sent: string[] = [];
    const source = manifestSourceOf({
      getSnapshot: () => app.actor.getSnapshot(),
      subscribe: (listener) => app.actor.subscribe(listener),
      send: (event) => sent.push(event.type),
    });
    const answered = outcome(source.whenSettled(true));
    await flush();
    expect(answered).toEqual({ settled: true, value: { prerendered: [], buildId: 'build-1' } });
    expect(sent).toEqual([]);
  });
});
