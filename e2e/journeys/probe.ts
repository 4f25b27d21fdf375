/**
 * The probe: a script the journey proxy puts first in every HTML document, so it runs before the app in every
 * engine (WebDriver has no "init script"). It reports each document load, each uncaught error or rejection and
 * each CSP violation to the proxy at once (a synchronous request: the report is in before the test reads it, and a
 * reload cannot lose it), and applies the journey's switches:
 * - `stubIntersectionObserver`: no link counts as on screen, so idle prefetch never asks for the chunk a journey
 *   fails on purpose (prefetch on pointer and focus intent stays on), as in the Chromium specs' fixture;
 * - `timers`: timers of at least `atLeast` ms last `factor` times as long (the first rule that fits): an hourly update
 *   check falls due within seconds, or a toast's five seconds become fifty, so a slow engine on a busy machine
 *   still hovers it in time. Playwright's clock exists in Chromium only; this works in every engine.
 * It also records every value `<html data-color-mode>` takes from the start of the document in
 * `window.__journeysModes`, so a journey can tell that a reload painted no other mode first.
 */
export const PROBE_PATH = '/__journeys/probe.js';
/** An empty page of the proxy's own, where a reused browser session starts a new journey. */
export const BLANK_PATH = '/__journeys/blank';

export interface ProbeOptions {
  readonly stubIntersectionObserver: boolean;
  readonly timers: readonly { readonly atLeast: number; readonly factor: number }[];
}

export type ProbeEvent = {
  readonly type: 'load' | 'error' | 'rejection' | 'csp';
  readonly path: string;
  readonly detail: string;
};

/** The probe's source for one document, its options written in. */
export function probeSource(options: ProbeOptions, eventPath: string): string {
  return `(${probe.toString()})(${JSON.stringify(options)}, ${JSON.stringify(eventPath)});`;
}

/** Runs in the page, before anything else: only what every engine has, no imports. */
function probe(options: ProbeOptions, eventPath: string): void {
  const send = (type: ProbeEvent['type'], detail: string) => {
    const request = new XMLHttpRequest();
    request.open('POST', eventPath, false);
    request.setRequestHeader('content-type', 'application/json');
    request.send(JSON.stringify({ type, path: location.pathname + location.search, detail }));
  };
  send('load', document.referrer);
  window.addEventListener('error', (event) => {
    // An element that failed to load (a chunk a journey cuts off) is no script error.
    if (event.target !== window) return;
    send('error', `${event.message} (${event.filename}:${event.lineno})`);
  });
  // A document being left cancels what it still loads (WebKit and Firefox reject a pending dynamic import):
  // nothing of that reaches the visitor, who sees the next page.
  let leaving = false;
  window.addEventListener('pagehide', () => {
    leaving = true;
  });
  window.addEventListener('pageshow', () => {
    leaving = false;
  });
  window.addEventListener('unhandledrejection', (event) => {
    if (leaving) return;
    const reason = event.reason as { message?: string } | undefined;
    send('rejection', String(reason?.message ? reason.message : reason));
  });
  document.addEventListener('securitypolicyviolation', (event) => {
    send(
      'csp',
      `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
    );
  });
  if (options.stubIntersectionObserver) {
    window.IntersectionObserver = class {
      readonly root = null;
      readonly rootMargin = '0px';
      readonly thresholds = [0];
      observe() {}
      unobserve() {}
      disconnect() {}
      takeRecords() {
        return [];
      }
    } as unknown as typeof IntersectionObserver;
  }
  if (options.timers.length > 0) {
    const setTimer = window.setTimeout.bind(window);
    const scaled = (timeout: number | undefined) => {
      const rule =
        timeout === undefined ? undefined : options.timers.find((candidate) => timeout >= candidate.atLeast);
      return rule && timeout !== undefined ? timeout * rule.factor : timeout;
    };
    window.setTimeout = ((handler: TimerHandler, timeout?: number, ...rest: unknown[]) =>
      setTimer(handler, scaled(timeout), ...rest)) as typeof setTimeout;
  }
  const modes: string[] = [];
  (window as unknown as { __journeysModes: string[] }).__journeysModes = modes;
  new MutationObserver(() =>
    modes.push(document.documentElement.getAttribute('data-color-mode') || ''),
  ).observe(document.documentElement, { attributes: true, attributeFilter: ['data-color-mode'] });
}
