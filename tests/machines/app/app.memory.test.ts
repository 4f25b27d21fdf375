// Pages kept in memory for Back and Forward (machines/app/app.navigation.ts `remember`) at a limit other than the
// harness's two: with two, every count of pages left below the limit keeps them all whatever the trimming does.
import { describe, expect, it } from 'vitest';
import { startApp } from '../../support/appHarness';

type App = Awaited<ReturnType<typeof startApp>>;

async function showing(app: App, to: string) {
  app.send({ type: 'nav.go', to });
  await app.finishLoad();
}

const rememberedPaths = (app: App) => app.actor.getSnapshot().context.remembered.map((page) => page.fullPath);

describe('app machine: pages kept for Back and Forward', () => {
  it('keeps every page left while there are fewer than the limit, then the latest up to it', async () => {
    const app = await startApp({ input: { maxRememberedPages: 3 } });
    app.send({ type: 'session.changed', signedIn: false });
    app.send({ type: 'nav.popped', to: '/' });
    await app.finishLoad('list');
    await showing(app, '/campaign/1');
    await showing(app, '/campaign/2');
    // Two left under a limit of three: both stay (a trim counted from the end without a floor at 0 kept one).
    expect(rememberedPaths(app)).toEqual(['/', '/campaign/1']);
    await showing(app, '/campaign/3');
    await showing(app, '/campaign/4');
    expect(rememberedPaths(app)).toEqual(['/campaign/1', '/campaign/2', '/campaign/3']);
  });
});
