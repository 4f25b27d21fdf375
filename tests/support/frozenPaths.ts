/**
 * Frozen path tests: the generated paths of a machine, with what each step led to (state value, the context
 * slice that matters, every effect requested), are kept in a committed file under `tests/frozen/`. A normal
 * run replays the frozen events on a real actor and compares every step with the file, so a change in
 * behaviour shows as a failing step and, once accepted, as a diff of that file to review; the expectation
 * never moves with the machine. `npm run freeze` (UPDATE_FROZEN=1) regenerates the files, and only it does.
 *
 * Timers run on XState's SimulatedClock: a step whose event is `xstate.after.*` moves the clock to the moment
 * the machine's own timer is due (it fails when no such timer is running), so delays are what the machine
 * computes, recorded as `{ timer, ms }` effects, never synthetic events.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, expect, it } from 'vitest';
import {
  type AnyActorLogic,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  createActor,
  SimulatedClock,
} from 'xstate';
import { type Effect, EffectRecorder, plain, revive } from './effects';
import { CoverageRecorder, type GeneratedPath } from './pathTesting';

export interface FrozenStep {
  readonly event: AnyEventObject;
  readonly value: unknown;
  /** Left out of the file where it equals the previous step's, which keeps the files small. */
  readonly context?: unknown;
  readonly effects: readonly Effect[];
}

export interface FrozenPath {
  readonly description: string;
  readonly steps: readonly FrozenStep[];
}

export type FrozenFile = Record<string, readonly FrozenPath[]>;

export interface FrozenVariant<TInput> {
  /** Key in the frozen file, e.g. `default`. */
  readonly name: string;
  readonly input?: TInput;
  /** Generates this variant's paths; called inside a test, never while tests are collected. */
  readonly generate: () => readonly GeneratedPath[];
  /** Overrides the machine's `minimumPaths` for this variant. */
  readonly minimumPaths?: number;
  /** For machines that read the time: the logic and input of a replay, given the replay's simulated clock. */
  readonly onClock?: (now: () => number) => { readonly logic?: AnyActorLogic; readonly input?: TInput };
}

export interface FrozenPathOptions<TInput> {
  /** Printed in the coverage line, e.g. `session machine`. */
  readonly title: string;
  /** The frozen file from the project root, e.g. `tests/frozen/session.paths.json`. */
  readonly file: string;
  readonly machine: AnyStateMachine;
  readonly variants: readonly FrozenVariant<TInput>[];
  /** Fewer generated paths than this means the model no longer reaches what it used to. */
  readonly minimumPaths: number;
  /** Invariants that hold in every settled state (behaviour assertions, run before the frozen comparison). */
  readonly assertState: (snapshot: AnyMachineSnapshot) => void;
  /** The part of the context worth freezing; the whole context (as plain data) by default. */
  readonly project?: (snapshot: AnyMachineSnapshot) => unknown;
  /** Keep only the paths that add a transition or a state value (default); `false` keeps every path. */
  readonly select?: boolean;
}

export const UPDATING = Boolean(process.env.UPDATE_FROZEN);

function shortEvent(event: AnyEventObject): string {
  return event.type;
}

/** Replays events on a fresh actor; `onStep` sees each settled snapshot and the step as it happened. */
export function replayEvents<TInput>(
  events: readonly AnyEventObject[],
  options: {
    readonly logic: AnyActorLogic;
    readonly input?: TInput;
    readonly coverage?: CoverageRecorder;
    readonly project: (snapshot: AnyMachineSnapshot) => unknown;
    readonly onStep: (snapshot: AnyMachineSnapshot, step: FrozenStep, index: number) => void;
    readonly onClock?: FrozenVariant<TInput>['onClock'];
  },
): void {
  const clock = new SimulatedClock();
  const effects = new EffectRecorder(() => clock.now());
  const onClock = options.onClock?.(() => clock.now());
  const input = onClock?.input ?? options.input;
  const actor = createActor(onClock?.logic ?? options.logic, {
    clock,
    inspect: (event) => {
      options.coverage?.inspect(event as Parameters<CoverageRecorder['inspect']>[0]);
      effects.inspect(event as unknown as Parameters<EffectRecorder['inspect']>[0]);
    },
    ...(input !== undefined ? { input } : {}),
  });
  try {
    events.forEach((event, index) => {
      if (index === 0) actor.start();
      else if (event.type.startsWith('xstate.after.')) {
        const due = effects.timers.get(event.type);
        if (due === undefined) {
          const trail = events.map((item) => item.type).join(' → ');
          throw new InfeasiblePath(`step ${index}: no ${event.type} timer is running (${trail})`);
        }
        clock.increment(due - clock.now());
      } else actor.send(event);
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      options.onStep(
        snapshot,
        {
          event: plain(event) as AnyEventObject,
          value: snapshot.value,
          context: plain(options.project(snapshot)),
          effects: effects.take(),
        },
        index,
      );
    });
  } finally {
    actor.stop();
  }
}

function readFrozen(file: string): FrozenFile | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as FrozenFile;
  } catch {
    return null;
  }
}

/** The context each step had, filling in the ones the file leaves out as unchanged. */
function contexts(steps: readonly FrozenStep[]): unknown[] {
  let last: unknown = null;
  return steps.map((step) => {
    if ('context' in step) last = step.context;
    return last;
  });
}

/** One step a line, so a changed step is a one-line diff; an unchanged context is left out. */
function formatFrozen(frozen: FrozenFile): string {
  const variants = Object.entries(frozen).map(([name, paths]) => {
    const body = paths
      .map((path) => {
        let previous = '';
        const steps = path.steps
          .map((step) => {
            const context = JSON.stringify(step.context);
            const { context: _context, ...rest } = step;
            const line = context === previous ? JSON.stringify(rest) : JSON.stringify(step);
            previous = context;
            return `    ${line}`;
          })
          .join(',\n');
        return `  {"description": ${JSON.stringify(path.description)}, "steps": [\n${steps}\n  ]}`;
      })
      .join(',\n');
    return `${JSON.stringify(name)}: [\n${body}\n]`;
  });
  return `{\n${variants.join(',\n')}\n}\n`;
}

class InfeasiblePath extends Error {}

/**
 * The generated paths that can happen in real time, and of those (unless `select` is false) the few that cover
 * the same ground: shortest first, a path is kept when its replay takes a transition definition or settles in
 * a state value that no kept path did. The graph treats timers as events in any order; on the clock a shorter
 * timer fires first, so a path that waits for a timer already spent is dropped.
 */
function generated<TInput>(options: FrozenPathOptions<TInput>, variant: FrozenVariant<TInput>) {
  const paths = variant.generate();
  const takenTransitions = new Set<string>();
  const settledValues = new Set<string>();
  const kept: GeneratedPath[] = [];
  let infeasible = 0;
  const byLength = [...paths].sort((a, b) => a.steps.length - b.steps.length);
  for (const path of byLength) {
    const coverage = new CoverageRecorder(options.machine);
    const values: string[] = [];
    try {
      replayEvents(
        path.steps.map((step) => step.event),
        {
          logic: options.machine,
          coverage,
          project: () => null,
          onStep: (snapshot) => {
            values.push(JSON.stringify(snapshot.value));
          },
          ...(variant.input !== undefined ? { input: variant.input } : {}),
          ...(variant.onClock ? { onClock: variant.onClock } : {}),
        },
      );
    } catch (error) {
      if (!(error instanceof InfeasiblePath)) throw error;
      infeasible += 1;
      continue;
    }
    if (options.select !== false) {
      const addsTransition = [...coverage.transitions].some((key) => !takenTransitions.has(key));
      const addsValue = values.some((value) => !settledValues.has(value));
      if (!addsTransition && !addsValue) continue;
    }
    kept.push(path);
    for (const key of coverage.transitions) takenTransitions.add(key);
    for (const value of values) settledValues.add(value);
  }
  // Shortest first, then in generation order: a stable order for the frozen file.
  return { all: paths.length, infeasible, kept };
}

/**
 * Registers the frozen path tests of a machine in the current `describe`. With UPDATE_FROZEN set, a single
 * test regenerates the file instead.
 */
export function registerFrozenPathTests<TInput>(options: FrozenPathOptions<TInput>): void {
  const project = options.project ?? ((snapshot: AnyMachineSnapshot) => snapshot.context);
  const label = (variant: string, text: string) =>
    options.variants.length > 1 ? `[${variant}] ${text}` : text;

  if (UPDATING) {
    it('regenerates the frozen paths', { timeout: 300_000 }, () => {
      const frozen: Record<string, FrozenPath[]> = {};
      for (const variant of options.variants) {
        const { all, infeasible, kept } = generated(options, variant);
        console.log(
          `[frozen] ${options.title} ${variant.name}: ${kept.length} of ${all} paths frozen (${infeasible} wait for a timer the clock already fired)`,
        );
        frozen[variant.name] = kept.map((path) => {
          const steps: FrozenStep[] = [];
          replayEvents(
            path.steps.map((step) => step.event),
            {
              logic: options.machine,
              project,
              onStep: (snapshot, step) => {
                options.assertState(snapshot);
                steps.push(step);
              },
              ...(variant.input !== undefined ? { input: variant.input } : {}),
              ...(variant.onClock ? { onClock: variant.onClock } : {}),
            },
          );
          return { description: path.description, steps };
        });
      }
      writeFileSync(options.file, formatFrozen(frozen));
    });
    return;
  }

  const frozen = readFrozen(options.file);
  const coverage = new CoverageRecorder(options.machine);
  function registerReplays(variant: FrozenVariant<TInput>, paths: readonly FrozenPath[] | undefined) {
    for (const path of paths ?? []) {
      it(label(variant.name, path.description), () => {
        const expectedContexts = contexts(path.steps);
        replayEvents(
          path.steps.map((step) => revive(step.event) as AnyEventObject),
          {
            logic: options.machine,
            coverage,
            project,
            onStep: (snapshot, step, index) => {
              const expected = path.steps[index] as FrozenStep;
              const where = `step ${index} (${shortEvent(step.event)})`;
              options.assertState(snapshot);
              expect(step.value, `frozen state after ${where}`).toEqual(expected.value);
              expect(step.effects, `frozen effects of ${where}`).toEqual(expected.effects);
              expect(step.context, `frozen context after ${where}`).toEqual(expectedContexts[index]);
            },
            ...(variant.input !== undefined ? { input: variant.input } : {}),
            ...(variant.onClock ? { onClock: variant.onClock } : {}),
          },
        );
      });
    }
  }

  for (const variant of options.variants) {
    const paths = frozen?.[variant.name];
    // Walking a large machine's graph takes seconds, more on a busy machine. Under Stryker the walk is left
    // out: it would run for nearly every mutant, and the frozen replays below judge the behaviour anyway.
    if (process.env.STRYKER_MUTATOR_WORKER !== undefined) {
      registerReplays(variant, paths);
      continue;
    }
    it(label(variant.name, 'the generated paths are the frozen ones'), { timeout: 120_000 }, () => {
      expect(paths, `no frozen paths for ${variant.name}: run \`npm run freeze\``).toBeDefined();
      const { all, infeasible, kept } = generated(options, variant);
      console.log(
        `[paths] ${options.title}${options.variants.length > 1 ? ` (${variant.name})` : ''}: ${all} generated, ${infeasible} impossible on the clock, ${kept.length} replayed`,
      );
      expect(all).toBeGreaterThan(variant.minimumPaths ?? options.minimumPaths);
      expect(
        kept.map((path) => path.description),
        'frozen: the graph changed; review it and run `npm run freeze`',
      ).toEqual(paths?.map((path) => path.description));
    });
    registerReplays(variant, paths);
  }

  // Under Stryker only the tests that cover a mutant run, so coverage of the whole machine means nothing there.
  if (process.env.STRYKER_MUTATOR_WORKER === undefined) {
    afterAll(() => {
      expect(coverage.report(options.title).missing).toEqual([]);
    });
  }
}
