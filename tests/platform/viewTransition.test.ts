// @vitest-environment happy-dom
// Page changes through View Transitions (src/platform/viewTransition.ts): a cross-fade when the browser has them,
// none on the first page, for reduced motion, or after a step the browser animated itself.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppView } from '../../machines/app/app.view';
import {
  isPageChange,
  startPageTransition,
  watchBrowserTransitions,
} from '../../src/platform/viewTransition';

function viewOf(pageKey: string, extra: Partial<AppView> = {}): AppView {
  return {
    booting: false,
    pageShown: true,
    busy: false,
    slow: false,
    error: null,
    current: null,
    pageKey,
    documentTitle: 'x',
    currentPath: '/',
    ...extra,
  };
}

/** `document.startViewTransition` as a fake that calls back at once, recording each call. */
function browserWithTransitions() {
  const started: (() => void)[] = [];
  const fake = vi.fn((update: () => void) => {
    started.push(update);
    update();
    const skipped = Promise.reject(new DOMException('Transition was skipped', 'AbortError'));
    return { updateCallbackDone: Promise.resolve(), ready: skipped, finished: skipped };
  });
  Object.assign(document, { startViewTransition: fake });
  return fake;
}

function prefersReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query === '(prefers-reduced-motion: reduce)',
  }));
}

/** A step back or forward to the entry with `key`, as the browser reports it. */
function popTo(key: string, hasUAVisualTransition: boolean) {
  window.history.replaceState({ key, idx: 0, usr: null }, '');
  window.dispatchEvent(
    Object.assign(new PopStateEvent('popstate', { state: window.history.state }), { hasUAVisualTransition }),
  );
}

let stopWatching: () => void = () => {};

beforeEach(() => {
  prefersReducedMotion(false);
  stopWatching = watchBrowserTransitions();
});

afterEach(() => {
  stopWatching();
  Reflect.deleteProperty(document, 'startViewTransition');
  vi.unstubAllGlobals();
});

describe('isPageChange', () => {
  it('is another page, or the error page coming or going, after the first page', () => {
    expect(isPageChange(viewOf('/'), viewOf('/campaign/1'))).toBe(true);
    expect(
      isPageChange(viewOf('/'), viewOf('/', { error: { statusCode: 500, message: 'x', fatal: true } })),
    ).toBe(true);
    expect(
      isPageChange(viewOf('/x', { error: { statusCode: 404, message: 'x', fatal: false } }), viewOf('/')),
    ).toBe(true);
  });

  it('is not the first page, nor the same page drawn again (busy, refreshed data, a #fragment)', () => {
    expect(isPageChange(viewOf('', { pageShown: false, booting: true }), viewOf('/'))).toBe(false);
    expect(isPageChange(viewOf('/'), viewOf('/', { busy: true }))).toBe(false);
  });
});

describe('startPageTransition', () => {
  it('draws inside a view transition where the browser has them', () => {
    const start = browserWithTransitions();
    const draw = vi.fn();
    expect(startPageTransition(draw)).toBe(true);
    expect(start).toHaveBeenCalledOnce();
    expect(draw).toHaveBeenCalledOnce();
  });

  it('leaves drawing to the caller where the browser has none', () => {
    const draw = vi.fn();
    expect(startPageTransition(draw)).toBe(false);
    expect(draw).not.toHaveBeenCalled();
  });

  it('starts none for a person who asked for less motion', () => {
    const start = browserWithTransitions();
    prefersReducedMotion(true);
    expect(startPageTransition(() => {})).toBe(false);
    expect(start).not.toHaveBeenCalled();
  });

  it('starts none for the step the browser has animated itself (a swipe back), and does for the next change', () => {
    const start = browserWithTransitions();
    popTo('k-swiped', true);
    expect(startPageTransition(() => {})).toBe(false);
    expect(startPageTransition(() => {})).toBe(true);
    expect(start).toHaveBeenCalledOnce();
  });

  it('does cross-fade a step the browser did not animate, and a later page when the animated step showed none', () => {
    browserWithTransitions();
    popTo('k-button', false);
    expect(startPageTransition(() => {})).toBe(true);
    popTo('k-swiped', true);
    // The app moved on (a link) before it showed a page for that step: the new entry is not the one animated.
    window.history.replaceState({ key: 'k-new', idx: 1, usr: null }, '');
    expect(startPageTransition(() => {})).toBe(true);
  });

  it('stops noting the browser’s steps when asked', () => {
    browserWithTransitions();
    stopWatching();
    popTo('k-swiped', true);
    expect(startPageTransition(() => {})).toBe(true);
  });

  it('draws as usual when starting the transition throws', () => {
    Object.assign(document, {
      startViewTransition: () => {
        throw new DOMException('no', 'InvalidStateError');
      },
    });
    expect(startPageTransition(() => {})).toBe(false);
  });
});
