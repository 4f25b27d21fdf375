/**
 * Replays a report's events (api/types.ts ReportBody) through the app machine in Node, with the inert
 * effects of the path tests (./appHarness.ts) and their effect recorder (./effects.ts): what the browser's
 * effects answered is in the events themselves (`xstate.done.actor.*`, `xstate.error.actor.*`), and its
 * timers fire on a SimulatedClock when their `xstate.after.*` event comes, as in the generated path tests.
 * Used by `npm run replay` (scripts/reports/replay.ts), by tests/scripts/reports/replay.test.ts and by generated tests/replays/.
 */
import {
  type AnyEventObject,
  type AnyMachineSnapshot,
  createActor,
  type InspectionEvent,
  SimulatedClock,
} from 'xstate';
import type { ReportBody } from '../../api/types';
import type { AppInput } from '../../machines/app/app.machine';
import { config } from '../../src/config';
import { inertApp } from './appHarness';
import { EffectRecorder, revive } from './effects';

export interface ReplayStep {
  readonly index: number;
  readonly event: string;
  readonly value: unknown;
  /** Why the event could not be replayed (a timer that is not running at that point). */
  readonly problem?: string;
}

export interface ReplayResult {
  readonly steps: readonly ReplayStep[];
  readonly initial: unknown;
  readonly final: unknown;
  /** The replay ends in the state value the report recorded. */
  readonly matches: boolean;
  /** The report's history starts mid-way (its ring buffer had dropped older events). */
  readonly partial: boolean;
}

/** The input the browser gave the app (src/platform/app.ts appInputFrom), with the report's build and boot page. */
export function replayInput(report: Pick<ReportBody, 'buildId' | 'boot'>): AppInput {
  return {
    appName: config.appName,
    maxRedirects: config.maxRedirects,
    maxEchoedPathLength: config.maxEchoedPathLength,
    maxRememberedPages: config.maxRememberedPages,
    timing: config.timing,
    buildId: report.buildId,
    ...(report.boot ? { initial: { fullPath: report.boot.path, data: null } } : {}),
  };
}

export function replayReport(
  report: Pick<ReportBody, 'buildId' | 'boot' | 'events' | 'eventsDropped' | 'state'>,
  options: { readonly inspect?: (event: InspectionEvent) => void } = {},
): ReplayResult {
  const clock = new SimulatedClock();
  const effects = new EffectRecorder(() => clock.now());
  const actor = createActor(inertApp, {
    clock,
    input: replayInput(report),
    inspect: (event) => {
      effects.inspect(event as unknown as Parameters<EffectRecorder['inspect']>[0]);
      options.inspect?.(event);
    },
  });
  actor.start();
  const value = () => (actor.getSnapshot() as AnyMachineSnapshot).value;
  const initial = value();
  const steps: ReplayStep[] = [];
  report.events.forEach((recorded, index) => {
    const event = revive(recorded) as AnyEventObject;
    let problem: string | undefined;
    if (event.type.startsWith('xstate.after.')) {
      const due = effects.timers.get(event.type);
      if (due === undefined) problem = `no ${event.type} timer is running here`;
      else clock.increment(due - clock.now());
    } else {
      actor.send(event as Parameters<typeof actor.send>[0]);
    }
    effects.take();
    steps.push({ index, event: event.type, value: value(), ...(problem ? { problem } : {}) });
  });
  const final = value();
  actor.stop();
  return {
    steps,
    initial,
    final,
    matches: JSON.stringify(sortKeys(final)) === JSON.stringify(sortKeys(report.state)),
    partial: report.eventsDropped > 0,
  };
}

function sortKeys(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

/** A state value on one line: `navigation.idle, errors.shown, …`. */
export function describeState(value: unknown, prefix = ''): string {
  if (typeof value === 'string') return `${prefix}${value}`;
  if (typeof value !== 'object' || value === null) return `${prefix}?`;
  return Object.entries(value)
    .map(([key, child]) => describeState(child, `${prefix}${key}.`))
    .join(', ');
}

/** What a replay test may be named: a report id as the API makes them (base64url), or a file's name, made safe. */
export const REPLAY_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A report's id or file name as the name of its replay test: anything else becomes `_`, and it is bounded. */
export function replayName(idOrFile: string): string {
  return idOrFile.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'report';
}

/**
 * The source of a Vitest regression test for a report (`npm run replay -- <id> --test`). A report is a
 * stranger's text, so none of it is written here: the test names the report by `name` alone (REPLAY_NAME, which
 * no comment, string or template can be escaped from) and reads everything else as data from `./<name>.json`.
 */
export function regressionTestSource(name: string): string {
  if (!REPLAY_NAME.test(name)) throw new Error(`Not a replay test name: ${JSON.stringify(name)}`);
  return `// Generated by \`npm run replay -- ${name} --test\`: a regression test for report ${name}.
// What the report says (build, route, error, events, state) is data in ./${name}.json, never code here;
// \`npm run replay -- tests/replays/${name}.json\` prints it. The test replays the visitor's events through the
// app machine and fails while they still end where the visitor's did. When the cause was outside the machine
// (the API answered 500), edit the recorded answer in ./${name}.json to what the fixed effect returns, then fix
// the code until this passes.
import { expect, it } from 'vitest';
import type { ReportBody } from '../../api/types';
import { replayReport } from '../support/replay';
import recorded from './${name}.json' with { type: 'json' };

const report = recorded as ReportBody;

it('report ${name}: the recorded events no longer end in the reported state', () => {
  const result = replayReport(report);
  expect(result.steps.filter((step) => step.problem)).toEqual([]);
  expect(result.final).not.toEqual(report.state);
});
`;
}
