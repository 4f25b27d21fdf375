import { type BrowserHistory, createMemoryHistory } from 'history';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import type { AppEvent } from '../machines/app.machine';
import { listenToHistory, updateAddressBar } from '../src/platform/history';

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
    const history = createMemoryHistory({ initialEntries: ['/', '//profile', '/home'], initialIndex: 0 });
    const replace = vi.spyOn(history, 'replace');
    const actor = listen(history as unknown as BrowserHistory);
    expect(replace).not.toHaveBeenCalled();
    history.forward();
    expect(actor.getSnapshot().context.heard).toEqual(['/', '/profile']);
    expect(history.location.pathname).toBe('/profile');
    expect(replace).toHaveBeenCalledOnce();
    history.forward();
    expect(actor.getSnapshot().context.heard).toEqual(['/', '/profile', '/home']);
    expect(replace).toHaveBeenCalledOnce();
    actor.stop();
  });

  it('keeps the entry’s state when it replaces the address bar with the normalised path', () => {
    const memory = createMemoryHistory({ initialEntries: [{ pathname: '//home', state: { scrollY: 120 } }] });
    const actor = listen(memory as unknown as BrowserHistory);
    expect(memory.location).toMatchObject({ pathname: '/home', state: { scrollY: 120 } });
    actor.stop();
  });

  it('tells the app `/` for a location that is no path at all', () => {
    // A browser's pathname always starts with a slash; a memory history's need not.
    const memory = createMemoryHistory({ initialEntries: ['campaign?x=1'] });
    const actor = listen(memory as unknown as BrowserHistory);
    expect(actor.getSnapshot().context.heard).toEqual(['/']);
    expect(memory.location.pathname).toBe('/');
    actor.stop();
  });

  it('does not report the app’s own pushes and replacements, only back/forward steps', () => {
    const memory = createMemoryHistory({ initialEntries: ['/'] });
    const actor = listen(memory as unknown as BrowserHistory);
    memory.push('/profile');
    memory.replace('/home');
    expect(actor.getSnapshot().context.heard).toEqual(['/']);
    memory.back();
    expect(actor.getSnapshot().context.heard).toEqual(['/', '/']);
    actor.stop();
    memory.forward();
    expect(actor.getSnapshot().context.heard).toEqual(['/', '/']);
  });
});

describe('history adapter where the browser can post tasks', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('tells the app of a back/forward step after the paint, having normalised the address bar at once', () => {
    const posted: { task: () => void; priority: string }[] = [];
    vi.stubGlobal('scheduler', {
      postTask: (task: () => void, options: { priority: string }) =>
        posted.push({ task, priority: options.priority }),
    });
    const memory = createMemoryHistory({ initialEntries: ['/', '//profile'], initialIndex: 0 });
    const actor = listen(memory as unknown as BrowserHistory);
    // The first location is told at once: nothing has been painted yet.
    expect(actor.getSnapshot().context.heard).toEqual(['/']);
    memory.forward();
    expect(memory.location.pathname).toBe('/profile');
    expect(actor.getSnapshot().context.heard).toEqual(['/']);
    expect(posted.map(({ priority }) => priority)).toEqual(['background']);
    posted[0]?.task();
    expect(actor.getSnapshot().context.heard).toEqual(['/', '/profile']);
    actor.stop();
  });
});

describe('address bar updates', () => {
  it('pushes a new entry, replaces the current one, or leaves history alone', () => {
    const memory = createMemoryHistory({ initialEntries: ['/'] });
    const history = memory as unknown as BrowserHistory;
    updateAddressBar(history, null);
    expect(memory.index).toBe(0);
    updateAddressBar(history, { type: 'push', to: '/campaign/1' });
    expect([memory.index, memory.location.pathname]).toEqual([1, '/campaign/1']);
    updateAddressBar(history, { type: 'replace', to: '/campaign/1?tab=2' });
    expect([memory.index, memory.location.pathname, memory.location.search]).toEqual([
      1,
      '/campaign/1',
      '?tab=2',
    ]);
  });
});
