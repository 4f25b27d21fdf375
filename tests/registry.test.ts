// @vitest-environment happy-dom
// The page registry's chunk imports as a navigation sees them (src/pages/registry.ts). The registry keeps its
// state per route for the document's life, so each test uses a route of its own.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import type { RouteName } from '../machines/routes';
import { importPage, loadPage } from '../src/pages/registry';

/** The network as each page chunk sees it: an import of the chunk is one request, which fails while offline. */
const network = vi.hoisted(() => {
  const requests = new Map<string, number>();
  const state = { online: true, requests };
  return {
    state,
    /** A mock page module: counts the request, fails offline. */
    chunk(name: string) {
      requests.set(name, (requests.get(name) ?? 0) + 1);
      if (!state.online) throw new TypeError('Failed to fetch dynamically imported module');
      return { default: { title: () => `The ${name} page` } };
    },
  };
});

// No chunk URLs: every attempt, retries too, goes through the bundler's own import, which the mocks stand for.
vi.mock('virtual:page-chunks', () => ({ default: {} }));
vi.mock('../src/pages/profile', () => network.chunk('profile'));
vi.mock('../src/pages/campaign', () => network.chunk('campaign'));
vi.mock('../src/pages/home', () => network.chunk('home'));

let now = 0;
const requests = (route: RouteName) => network.state.requests.get(route) ?? 0;

beforeEach(() => {
  network.state.online = true;
  now = 1_000;
  vi.spyOn(performance, 'now').mockImplementation(() => now);
});

/** A hover's prefetch while offline: the chunk's request fails. */
async function failedPrefetch(route: RouteName) {
  network.state.online = false;
  await expect(importPage(route, { prefetch: true })).rejects.toMatchObject({ kind: 'chunk', route });
  expect(requests(route)).toBe(1);
  network.state.online = true;
}

/** The click's navigation, as the app machine's loadPage actor runs it. */
function navigate(route: RouteName) {
  const actor = createActor(loadPage, { input: { route, params: {}, fullPath: `/${route}` } });
  const done = toPromise(actor);
  actor.start();
  return done;
}

describe('a failed prefetch of a page chunk', () => {
  it('is the first attempt of a click within 10 s: the error view, without another request', async () => {
    await failedPrefetch('profile');
    now += 9_999;
    await expect(navigate('profile')).rejects.toMatchObject({ kind: 'chunk', route: 'profile' });
    expect(requests('profile')).toBe(1);
    // Kept for that one navigation: the chunk recovery's retry makes a request and gets the page.
    await expect(navigate('profile')).resolves.toEqual({ data: undefined, title: 'The profile page' });
    expect(requests('profile')).toBe(2);
  });

  it('is forgotten after 10 s: a click 30 s later asks the network again and shows the page', async () => {
    await failedPrefetch('campaign');
    now += 30_000;
    await expect(navigate('campaign')).resolves.toEqual({ data: undefined, title: 'The campaign page' });
    expect(requests('campaign')).toBe(2);
  });

  it('is forgotten at exactly 10 s', async () => {
    await failedPrefetch('home');
    now += 10_000;
    await expect(navigate('home')).resolves.toEqual({ data: undefined, title: 'The home page' });
    expect(requests('home')).toBe(2);
  });
});
