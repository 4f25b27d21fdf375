// @vitest-environment happy-dom
// Page changes through View Transitions (src/platform/viewTransition.ts): a cross-fade for a new page when the
// browser has them; none on the first page, for reduced motion, or for a step back or forward.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppView } from '../../machines/app/app.view';
import { isPageChange, noteHistoryStep, startPageTransition } from '../../src/platform/viewTransition';

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

/** A step back or forward to the entry with `key`, as the history adapter reports it. */
function stepTo(key: string) {
  window.history.replaceState({ key, idx: 0, usr: null }, '');
  noteHistoryStep(key);
}

beforeEach(() => {
  prefersReducedMotion(false);
});

afterEach(() => {
  noteHistoryStep(null);
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

  it('starts none for a step back or forward, however many changes draw it, and does for the next entry', () => {
    const start = browserWithTransitions();
    stepTo('k-step');
    expect(startPageTransition(() => {})).toBe(false);
    expect(startPageTransition(() => {})).toBe(false);
    window.history.pushState({ key: 'k-link', idx: 1, usr: null }, '');
    expect(startPageTransition(() => {})).toBe(true);
    expect(start).toHaveBeenCalledOnce();
  });

  it('does cross-fade a new page when the step before it showed none', () => {
    browserWithTransitions();
    stepTo('k-step');
    // The app moved on (a link) before it showed a page for that step: the new entry is not the one stepped to.
    window.history.replaceState({ key: 'k-new', idx: 1, usr: null }, '');
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
