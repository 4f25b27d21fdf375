/**
 * A journey: what a visitor does and sees, written once against `Visitor` and run in every engine (none is left out: an engine that lacks an API
 * falls back, and the journey there is the same). Journeys
 * register here (`journey(...)` in a module listed in index.ts); e2e/journeys.spec.ts turns each into a test of
 * every engine's project.
 */
import type { Visitor } from './visitor';

export interface Journey {
  readonly title: string;
  readonly run: (visitor: Visitor) => Promise<void>;
  /** Uncaught errors the journey provokes on purpose (a missing chunk): they do not fail it. */
  readonly allowPageErrors: boolean;
}

const registered: Journey[] = [];

export function journey(
  title: string,
  run: (visitor: Visitor) => Promise<void>,
  options: { allowPageErrors?: boolean } = {},
): void {
  registered.push({
    title,
    run,
    allowPageErrors: options.allowPageErrors ?? false,
  });
}

export function journeys(): readonly Journey[] {
  return registered;
}
