import { type BrowserHistory, createMemoryHistory } from 'history';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup } from 'xstate';
import type { AppEvent } from '../../machines/app/app.machine';
import { listenToHistory, updateAddressBar } from '../../src/platform/history';
import type { ScrollMemory } from '../../src/platform/scroll';

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

  it('tells the app of a back/forward step at once (a kept page then shows in the next frame), normalised', () => {
    const posted: { task: () => void; priority: string }[] = [];
    vi.stubGlobal('scheduler', {
      postTask: (task: () => void, options: { priority: string }) =>
        posted.push({ task, priority: options.priority }),
    });
    const memory = createMemoryHistory({ initialEntries: ['/', '//profile'], initialIndex: 0 });
    const actor = listen(memory as unknown as BrowserHistory);
    expect(actor.getSnapshot().context.heard).toEqual(['/']);
    memory.forward();
    expect(memory.location.pathname).toBe('/profile');
    expect(actor.getSnapshot().context.heard).toEqual(['/', '/profile']);
    expect(posted).toEqual([]);
    actor.stop();
  });

  it('after what an earlier input deferred: a click’s navigation, then Back, reach the app in that order', async () => {
    const posted: (() => void)[] = [];
    vi.stubGlobal('scheduler', { postTask: (task: () => void) => posted.push(task) });
    const { afterInput } = await import('../../src/platform/tasks');
    const memory = createMemoryHistory({ initialEntries: ['/', '/home'], initialIndex: 1 });
    const actor = listen(memory as unknown as BrowserHistory);
    const order: string[] = [];
    afterInput(() => order.push('click'));
    actor.subscribe(({ context }) => order.push(`heard ${context.heard.at(-1)}`));
    memory.back();
    expect(order).toEqual(['click', 'heard /']);
    // The click's own task, when it comes, finds its work done.
    for (const task of posted) task();
    expect(order).toEqual(['click', 'heard /']);
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

describe('history adapter and scroll positions', () => {
  /** A scroll memory that records what the adapter asks of it. */
  function recordingScroll() {
    const calls: string[] = [];
    let currentKey: (() => string) | null = null;
    const scroll: ScrollMemory = {
      leave: (key) => calls.push(`leave ${key}`),
      positionOf: () => null,
      takeOver: (current) => {
        currentKey = current;
        calls.push('take over');
        return () => calls.push('hand back');
      },
    };
    return { scroll, calls, currentKey: () => currentKey?.() };
  }

  function listenWith(history: BrowserHistory, scroll: ScrollMemory) {
    const parent = setup({
      types: { context: {} as { heard: string[] }, events: {} as AppEvent },
      actors: { listenToHistory: listenToHistory(history, scroll) },
    }).createMachine({
      context: { heard: [] },
      invoke: { src: 'listenToHistory', input: { reportStart: true } },
      on: {
        'nav.popped': { actions: assign({ heard: ({ context, event }) => [...context.heard, event.to] }) },
      },
    });
    return createActor(parent).start();
  }

  it('takes scrolling over while it listens, and remembers where the window was on the entry a step leaves', () => {
    const memory = createMemoryHistory({ initialEntries: ['/', '/campaign/1'], initialIndex: 1 });
    const history = memory as unknown as BrowserHistory;
    const { scroll, calls, currentKey } = recordingScroll();
    const actor = listenWith(history, scroll);
    const left = memory.location.key;
    expect(calls).toEqual(['take over']);
    expect(currentKey()).toBe(left);
    memory.back();
    // Left before the app hears of the step (which may draw the page it returns to at once).
    expect(calls).toEqual(['take over', `leave ${left}`]);
    expect(currentKey()).toBe(memory.location.key);
    // Its own pushes are remembered by updateAddressBar; the step after one leaves the pushed entry.
    const start = memory.location.key;
    updateAddressBar(history, { type: 'push', to: '/home' }, scroll);
    const home = memory.location.key;
    memory.back();
    expect(calls.slice(2)).toEqual([`leave ${start}`, `leave ${home}`]);
    actor.stop();
    expect(calls.at(-1)).toBe('hand back');
  });

  it('gives an entry the browser made without a key one of its own, so its position is its own', () => {
    // The first entry of a document, and a #fragment followed outside the app, have no state: key `default`.
    const memory = createMemoryHistory({
      initialEntries: [
        { pathname: '/campaign/1', key: 'default' },
        { pathname: '/campaign/1', hash: '#progress', key: 'default' },
      ],
      initialIndex: 0,
    });
    const { scroll, calls } = recordingScroll();
    const actor = listenWith(memory as unknown as BrowserHistory, scroll);
    const first = memory.location.key;
    expect(first).not.toBe('default');
    expect(memory.location.pathname).toBe('/campaign/1');
    memory.forward();
    expect(memory.location.key).not.toBe('default');
    expect(memory.location.key).not.toBe(first);
    expect(calls).toEqual(['take over', `leave ${first}`]);
    expect(actor.getSnapshot().context.heard).toEqual(['/campaign/1', '/campaign/1#progress']);
    actor.stop();
  });

  it('a replacement leaves no position behind: the entry it replaces is gone', () => {
    const memory = createMemoryHistory({ initialEntries: ['/'] });
    const { scroll, calls } = recordingScroll();
    updateAddressBar(memory as unknown as BrowserHistory, { type: 'replace', to: '/home' }, scroll);
    updateAddressBar(memory as unknown as BrowserHistory, null, scroll);
    expect(calls).toEqual([]);
  });
});
