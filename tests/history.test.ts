import { type BrowserHistory, createMemoryHistory } from 'history';
import { describe, expect, it } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import type { AppEvent } from '../machines/app.machine';
import { listenToHistory } from '../src/platform/history';

/** Runs the history adapter under a parent that records what it hears. */
function listen(history: BrowserHistory, reportStart = true) {
  const parent = setup({
    types: { context: {} as { heard: string[] }, events: {} as AppEvent },
    actors: { listenToHistory: listenToHistory(history) },
  }).createMachine({
    context: { heard: [] },
    invoke: { src: 'listenToHistory', input: { reportStart } },
    on: {
      'nav.popped': { actions: assign({ heard: ({ context, event }) => [...context.heard, event.to] }) },
    },
  });
  return createActor(parent).start();
}

describe('history adapter', () => {
  it('does not report the first location when the app booted on the page already (a prerendered one)', () => {
    const memory = createMemoryHistory({ initialEntries: ['/campaign/1', '/'], initialIndex: 0 });
    const actor = listen(memory as unknown as BrowserHistory, false);
    expect(actor.getSnapshot().context.heard).toEqual([]);
    memory.forward();
    expect(actor.getSnapshot().context.heard).toEqual(['/']);
    actor.stop();
  });

  it.each([
    ['//home', '/home'],
    ['//', '/'],
    ['///campaign/1?x=1#top', '/campaign/1?x=1#top'],
  ])(
    'a first load of %j tells the app %j and replaces the address bar with it (regression)',
    (raw, expected) => {
      // `//home` used to reach the app as is, which refused it as another host: the loading shell stayed forever.
      const memory = createMemoryHistory({ initialEntries: [raw] });
      const history = memory as unknown as BrowserHistory;
      const actor = listen(history);
      expect(actor.getSnapshot().context.heard).toEqual([expected]);
      const { pathname, search, hash } = history.location;
      expect(`${pathname}${search}${hash}`).toBe(expected);
      expect(memory.index).toBe(0);
      actor.stop();
    },
  );

  it('normalises back/forward steps too, and leaves ordinary paths alone', () => {
    const history = createMemoryHistory({ initialEntries: ['/', '//profile'], initialIndex: 0 });
    const actor = listen(history as unknown as BrowserHistory);
    history.forward();
    expect(actor.getSnapshot().context.heard).toEqual(['/', '/profile']);
    expect(history.location.pathname).toBe('/profile');
    actor.stop();
  });
});
