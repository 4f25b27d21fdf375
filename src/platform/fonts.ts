/**
 * Font strikes made ready while the browser idles. Chromium on Linux asks its browser process, over a synchronous
 * IPC, how to render a font at a size and weight the renderer has not drawn before; the first page to show a new
 * size waits for it inside the layout of the frame that shows the page (two new strikes took 15 of a
 * 21 ms layout at 4x CPU in a prefetched link's click, `FontCache::GetFontPlatformData` in a trace). Measuring a
 * character in each of the app's strikes on a canvas shares that font cache, so the question is asked at idle
 * instead, one strike at a time, and a navigation's frame only finds answers.
 */
import { type FontStrike, TYPE_SCALE } from '../ui/typeScale';

/** What a strike's tokens are, as the stylesheet defines them (Panda's CSS variables on `:root`). */
export type ReadToken = (name: string) => string;

/** The CSS `font` shorthand for `strike`, with its size in pixels (rem against `rootPx`), or null if a token is missing. */
export function fontOf(strike: FontStrike, read: ReadToken, rootPx: number): string | null {
  const size = read(`--font-sizes-${strike.size}`).trim();
  const weight = read(`--font-weights-${strike.weight}`).trim();
  const family = read(`--fonts-${strike.family}`).trim();
  // Stryker disable next-line ArrayDeclaration: the array stands in for a size that is not a length (the pattern did not match), and only its second and third items are read. A one-item array leaves both undefined, as the empty one does: `Number(undefined)` is NaN and the strike is left out (tests/platform/fonts.test.ts checks eight such sizes).
  const [, number, unit] = /^([\d.]+)(rem|px)$/.exec(size) ?? [];
  const px = Number(number) * (unit === 'rem' ? rootPx : 1);
  if (!Number.isFinite(px) || weight === '' || family === '') return null;
  return `${weight} ${px}px ${family}`;
}

/** Gives `work` one idle slice at a time; `work` says whether it wants another. Returns a cancel function. */
export type IdleSlices = (work: (timeLeft: () => number) => boolean) => () => void;

/** `requestIdleCallback` slices (a 50 ms timer's where it is missing, Safari's case, with 5 ms to use each). */
export const idleSlices: IdleSlices = (work) => {
  let cancel = () => {};
  const next = () => {
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback((deadline) => {
        if (work(() => deadline.timeRemaining())) next();
      });
      cancel = () => cancelIdleCallback(handle);
    } else {
      const handle = setTimeout(() => {
        const until = performance.now() + 5;
        if (work(() => until - performance.now())) next();
      }, 50);
      cancel = () => clearTimeout(handle);
    }
  };
  next();
  return () => cancel();
};

/** How long one strike's question may take: a slice with less left than this waits for the next. */
const STRIKE_BUDGET_MS = 4;

/**
 * Measures a character in each of `fonts` with `measure`, in idle slices, each font once, in order; at most one
 * per slice when a slice has less than `STRIKE_BUDGET_MS` left. Returns a function that stops what is left.
 */
export function warmFonts(
  fonts: readonly string[],
  measure: (font: string) => void,
  slices: IdleSlices = idleSlices,
): () => void {
  const left = [...fonts];
  if (left.length === 0) return () => {};
  return slices((timeLeft) => {
    let font = left.shift();
    while (font !== undefined) {
      measure(font);
      if (timeLeft() < STRIKE_BUDGET_MS) break;
      font = left.shift();
    }
    return left.length > 0;
  });
}

/** A measuring function on an `OffscreenCanvas`, or null where there is none (the warm-up is then skipped). */
export function canvasMeasure(): ((font: string) => void) | null {
  if (typeof OffscreenCanvas !== 'function') return null;
  const context = new OffscreenCanvas(1, 1).getContext('2d');
  if (!context) return null;
  return (font) => {
    context.font = font;
    context.measureText('a');
  };
}

/** Warms `strikes` as the document's stylesheet resolves them, at idle; a browser without a canvas does nothing. */
export function warmTypeScale(strikes: readonly FontStrike[] = TYPE_SCALE): () => void {
  const measure = canvasMeasure();
  if (!measure) return () => {};
  const style = getComputedStyle(document.documentElement);
  const rootPx = Number.parseFloat(style.fontSize) || 16;
  const fonts = strikes
    .map((strike) => fontOf(strike, (name) => style.getPropertyValue(name), rootPx))
    .filter((font): font is string => font !== null);
  return warmFonts([...new Set(fonts)], measure);
}
