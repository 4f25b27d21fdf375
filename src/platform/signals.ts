/**
 * Abort signals for requests: the caller's signal (an actor stopping) combined with a timeout. Browsers the
 * build targets may lack `AbortSignal.any` (Safari < 17.4, Chrome < 116), so the combination falls back to a
 * controller with listeners; the timeout is a plain timer rather than `AbortSignal.timeout`, which works
 * everywhere and is driven by the test clocks (Vitest's fake timers, Playwright's `page.clock`).
 */

/** What `AbortSignal` may offer; tests pass `{}` to take the fallback path. */
export interface SignalStatics {
  readonly any?: (signals: AbortSignal[]) => AbortSignal;
}

export interface TimedSignal {
  readonly signal: AbortSignal;
  /** True once the timeout, not the caller, aborted the signal. */
  timedOut(): boolean;
  /** Stops the timer and forgets the caller's signal; call when the request has settled. */
  dispose(): void;
}

/** One signal that aborts when any of `signals` does, with that signal's reason. */
export function anySignal(
  signals: readonly AbortSignal[],
  statics: SignalStatics = AbortSignal,
): { signal: AbortSignal; dispose(): void } {
  if (typeof statics.any === 'function') return { signal: statics.any([...signals]), dispose: () => {} };
  const controller = new AbortController();
  const unsubscribe: (() => void)[] = [];
  const dispose = () => {
    for (const off of unsubscribe.splice(0)) off();
  };
  for (const source of signals) {
    if (source.aborted) {
      controller.abort(source.reason);
      dispose();
      break;
    }
    const onAbort = () => {
      controller.abort(source.reason);
      dispose();
    };
    // Stryker disable next-line ObjectLiteral: An AbortSignal fires 'abort' at most once (abort() on an aborted signal does nothing), so a listener that is not `once` is never called a second time; and the handler itself disposes every listener, this one included, when it runs. `once` only lets the browser drop the listener a little earlier. No behaviour changes: tests/platform/signals.test.ts and tests/platform/api.timeout.test.ts (the reason, the removal of the other sources' listeners, no abort after dispose) pass with the mutant.
    // Stryker disable next-line BooleanLiteral: Same as `{ once: true }` -> `{}` on this line: an abort signal dispatches 'abort' only once, and the listener removes itself through dispose() when it runs, so `once: false` cannot make it run twice.
    source.addEventListener('abort', onAbort, { once: true });
    unsubscribe.push(() => source.removeEventListener('abort', onAbort));
  }
  return { signal: controller.signal, dispose };
}

/** `signal` (when given) combined with a timeout of `ms`; the timeout aborts with a `TimeoutError`. */
export function withTimeout(
  signal: AbortSignal | undefined,
  ms: number,
  statics: SignalStatics = AbortSignal,
): TimedSignal {
  const timeout = new AbortController();
  const timer = setTimeout(
    () => timeout.abort(new DOMException(`No answer within ${ms} ms.`, 'TimeoutError')),
    ms,
  );
  const combined = signal ? anySignal([signal, timeout.signal], statics) : null;
  return {
    signal: combined?.signal ?? timeout.signal,
    timedOut: () => timeout.signal.aborted && !signal?.aborted,
    dispose: () => {
      clearTimeout(timer);
      combined?.dispose();
    },
  };
}
