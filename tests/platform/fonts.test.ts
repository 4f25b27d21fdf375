// @vitest-environment happy-dom
// Font strikes warmed at idle (src/platform/fonts.ts): the `font` each strike's tokens resolve to, the idle slices
// they are measured in, and a browser without a canvas or without requestIdleCallback.
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  canvasMeasure,
  fontOf,
  type IdleSlices,
  idleSlices,
  warmFonts,
  warmTypeScale,
} from '../../src/platform/fonts';
import { TYPE_SCALE } from '../../src/ui/typeScale';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  document.documentElement.removeAttribute('style');
});

const TOKENS: Record<string, string> = {
  '--font-sizes-sm': '.875rem',
  '--font-sizes-3xl': ' 1.875rem',
  '--font-sizes-px': '13px',
  '--font-weights-bold': ' 700',
  '--font-weights-normal': '400',
  '--fonts-body': ' system-ui, sans-serif ',
  '--fonts-mono': 'ui-monospace, monospace',
};
const read = (name: string) => TOKENS[name] ?? '';

describe('fontOf', () => {
  it('writes the font shorthand with the size in pixels against the root font size', () => {
    expect(fontOf({ family: 'body', size: '3xl', weight: 'bold' }, read, 16)).toBe(
      '700 30px system-ui, sans-serif',
    );
    expect(fontOf({ family: 'body', size: 'sm', weight: 'normal' }, read, 20)).toBe(
      '400 17.5px system-ui, sans-serif',
    );
  });

  it('takes a size in pixels as it is, and the mono family from its token', () => {
    expect(fontOf({ family: 'mono', size: 'px', weight: 'normal' }, read, 16)).toBe(
      '400 13px ui-monospace, monospace',
    );
    for (const [size, px] of [
      ['2rem', 32],
      ['.5rem', 8],
      ['7px', 7],
      ['.5px', 0.5],
      ['12.25px', 12.25],
    ] as const) {
      const sized = (name: string) => (name === '--font-sizes-sm' ? size : read(name));
      expect(fontOf({ family: 'body', size: 'sm', weight: 'bold' }, sized, 16)).toBe(
        `700 ${px}px system-ui, sans-serif`,
      );
    }
  });

  it('is null when a token is missing or its size is not a length', () => {
    expect(fontOf({ family: 'body', size: 'huge', weight: 'bold' }, read, 16)).toBeNull();
    expect(fontOf({ family: 'body', size: 'sm', weight: 'heavy' }, read, 16)).toBeNull();
    const noFamily = (name: string) => (name.startsWith('--fonts') ? '' : read(name));
    expect(fontOf({ family: 'body', size: 'sm', weight: 'bold' }, noFamily, 16)).toBeNull();
    for (const size of ['1em', 'x2rem', '2remx', 'a13px', '13pxx', '1.2.3rem', 'calc(1rem)', '']) {
      const sized = (name: string) => (name === '--font-sizes-sm' ? size : read(name));
      expect(fontOf({ family: 'body', size: 'sm', weight: 'bold' }, sized, 16), size).toBeNull();
    }
  });
});

/** Idle slices the test hands out, each with the time it says is left. */
function manualSlices() {
  let work: ((timeLeft: () => number) => boolean) | null = null;
  const cancel = vi.fn(() => {
    work = null;
  });
  const slices: IdleSlices = (next) => {
    work = next;
    return cancel;
  };
  return {
    slices,
    cancel,
    /** Runs one slice with `left` ms (or a clock that runs down, one value a call); false when none is asked for. */
    run(left: number | number[]): boolean {
      if (!work) return false;
      const times = Array.isArray(left) ? [...left] : null;
      const current = work;
      work = null;
      const again = current(() => (times ? (times.shift() ?? 0) : (left as number)));
      if (again) work = current;
      return true;
    },
  };
}

describe('warmFonts', () => {
  it('measures each font once, in order, as many in a slice as its time allows', () => {
    const measured: string[] = [];
    const idle = manualSlices();
    warmFonts(['a', 'b', 'c', 'd'], (font) => measured.push(font), idle.slices);
    expect(measured).toEqual([]);
    // 10 ms left after the first, 3 after the second: two in this slice.
    expect(idle.run([10, 3])).toBe(true);
    expect(measured).toEqual(['a', 'b']);
    expect(idle.run(50)).toBe(true);
    expect(measured).toEqual(['a', 'b', 'c', 'd']);
    expect(idle.run(50), 'no slice is asked for once every font is measured').toBe(false);
  });

  it('measures one font in a slice with less than 4 ms left, and goes on at 4 ms', () => {
    const measured: string[] = [];
    const idle = manualSlices();
    warmFonts(['a', 'b', 'c'], (font) => measured.push(font), idle.slices);
    idle.run(3.9);
    expect(measured).toEqual(['a']);
    idle.run([4, 0]);
    expect(measured).toEqual(['a', 'b', 'c']);
  });

  it('asks for no slice when there is nothing to warm', () => {
    const slices = vi.fn<IdleSlices>(() => () => {});
    warmFonts([], () => {}, slices);
    expect(slices).not.toHaveBeenCalled();
  });

  it('stops when cancelled', () => {
    const idle = manualSlices();
    const stop = warmFonts(['a', 'b'], () => {}, idle.slices);
    stop();
    expect(idle.cancel).toHaveBeenCalledOnce();
    expect(idle.run(50)).toBe(false);
  });
});

describe('idleSlices', () => {
  it('hands out requestIdleCallback slices with their deadline until the work is done, and cancels the pending one', () => {
    const callbacks: IdleRequestCallback[] = [];
    const cancelled: number[] = [];
    vi.stubGlobal('requestIdleCallback', (callback: IdleRequestCallback) => callbacks.push(callback));
    vi.stubGlobal('cancelIdleCallback', (handle: number) => cancelled.push(handle));
    const seen: number[] = [];
    let slicesLeft = 2;
    const stop = idleSlices((timeLeft) => {
      seen.push(timeLeft());
      slicesLeft -= 1;
      return slicesLeft > 0;
    });
    expect(callbacks).toHaveLength(1);
    callbacks[0]?.({ didTimeout: false, timeRemaining: () => 12 });
    expect(callbacks).toHaveLength(2);
    callbacks[1]?.({ didTimeout: false, timeRemaining: () => 7 });
    expect(seen).toEqual([12, 7]);
    expect(callbacks, 'no slice after the work says it is done').toHaveLength(2);
    stop();
    expect(cancelled).toEqual([2]);
  });

  it('uses 50 ms timers with 5 ms to spend where requestIdleCallback is missing (Safari)', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const left: number[] = [];
    const stop = idleSlices((timeLeft) => {
      left.push(timeLeft());
      return true;
    });
    vi.advanceTimersByTime(49);
    expect(left).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(left).toEqual([5]);
    vi.advanceTimersByTime(50);
    expect(left, 'another slice while the work wants one').toEqual([5, 5]);
    stop();
    vi.advanceTimersByTime(500);
    expect(left, 'nothing after it is stopped').toEqual([5, 5]);
  });
});

describe('canvasMeasure', () => {
  it('sets each font on an OffscreenCanvas context and measures a character in it', () => {
    const calls: string[] = [];
    const context = {
      font: '',
      measureText(text: string) {
        calls.push(`${this.font}|${text}`);
      },
    };
    vi.stubGlobal(
      'OffscreenCanvas',
      class {
        getContext(kind: string) {
          return kind === '2d' ? context : null;
        }
      },
    );
    const measure = canvasMeasure();
    measure?.('700 30px serif');
    expect(calls).toEqual(['700 30px serif|a']);
  });

  it('is null without an OffscreenCanvas, or without its 2D context', () => {
    vi.stubGlobal('OffscreenCanvas', undefined);
    expect(canvasMeasure()).toBeNull();
    vi.stubGlobal(
      'OffscreenCanvas',
      class {
        getContext() {
          return null;
        }
      },
    );
    expect(canvasMeasure()).toBeNull();
  });
});

describe('warmTypeScale', () => {
  it('warms the type scale as the document resolves it, each font once', () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestIdleCallback', undefined);
    const fonts: string[] = [];
    vi.stubGlobal(
      'OffscreenCanvas',
      class {
        getContext() {
          return {
            set font(value: string) {
              fonts.push(value);
            },
            measureText() {},
          };
        }
      },
    );
    for (const [name, value] of Object.entries(TOKENS))
      document.documentElement.style.setProperty(name, value);
    document.documentElement.style.fontSize = '20px';
    warmTypeScale([
      { family: 'body', size: 'sm', weight: 'bold' },
      { family: 'body', size: 'sm', weight: 'bold' },
      { family: 'body', size: 'nope', weight: 'bold' },
      { family: 'mono', size: '3xl', weight: 'normal' },
    ]);
    vi.advanceTimersByTime(1000);
    expect(fonts).toEqual(['700 17.5px system-ui, sans-serif', '400 37.5px ui-monospace, monospace']);
  });

  it('does nothing where there is no canvas to measure on', () => {
    vi.stubGlobal('OffscreenCanvas', undefined);
    for (const [name, value] of Object.entries(TOKENS))
      document.documentElement.style.setProperty(name, value);
    const idle = vi.fn();
    vi.stubGlobal('requestIdleCallback', idle);
    warmTypeScale(TYPE_SCALE);
    expect(idle).not.toHaveBeenCalled();
  });
});
