/**
 * The probe: a script the journey proxy puts first in every HTML document, so it runs before the app in every
 * engine (WebDriver has no "init script"). It reports each document load, each uncaught error or rejection and
 * each CSP violation to the proxy at once (a synchronous request: the report is in before the test reads it, and a
 * reload cannot lose it), and applies the journey's switches:
 * - `stubIntersectionObserver`: no link counts as on screen, so idle prefetch never asks for the chunk a journey
 *   fails on purpose (prefetch on pointer and focus intent stays on), as in the Chromium specs' fixture;
 * - `timeScale`: timers of a minute or more run that many times sooner, so an hourly update check falls due within
 *   seconds in an engine without Playwright's clock.
 */
export const PROBE_PATH = '/__journeys/probe.js';

export interface ProbeOptions {
  readonly stubIntersectionObserver: boolean;
  readonly timeScale: number;
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

/** Runs in the page: only what every engine has (no optional chaining on old APIs, no modules). */
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
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason as { message?: string } | undefined;
    send('rejection', String(reason && reason.message ? reason.message : reason));
  });
  document.addEventListener('securitypolicyviolation', (event) => {
    send('csp', `${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
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
  if (options.timeScale > 1) {
    const setTimer = window.setTimeout.bind(window);
    const scale = options.timeScale;
    window.setTimeout = ((handler: TimerHandler, timeout?: number, ...rest: unknown[]) =>
      setTimer(handler, timeout !== undefined && timeout >= 60_000 ? timeout / scale : timeout, ...rest)) as typeof setTimeout;
  }
}
