/**
 * Registers generated path tests in the current `describe`: the covering subset of the paths, each replayed
 * and asserted as its own test, and a coverage report that fails the file when a state or transition is missed.
 */
import { afterAll, expect, it } from 'vitest';
import type { AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { CoverageRecorder, type GeneratedPath, replayPath, selectCoveringPaths } from './pathTesting';

export interface PathTestOptions<TInput> {
  /** Printed in the coverage line, e.g. `session machine`. */
  readonly title: string;
  readonly machine: AnyStateMachine;
  readonly input?: TInput;
  readonly paths: readonly GeneratedPath[];
  /** Fewer generated paths than this means the model no longer reaches what it used to. */
  readonly minimumPaths: number;
  readonly assertState: (snapshot: AnyMachineSnapshot) => void;
}

export function registerPathTests<TInput>(options: PathTestOptions<TInput>): GeneratedPath[] {
  const recorder = new CoverageRecorder(options.machine);
  const covering = selectCoveringPaths(options.paths, {
    machine: options.machine,
    ...(options.input !== undefined ? { input: options.input } : {}),
  });

  it('generates a path for every edge of the state graph', () => {
    console.log(
      `[paths] ${options.title}: ${options.paths.length} generated, ${covering.length} cover every transition and state value`,
    );
    expect(options.paths.length).toBeGreaterThan(options.minimumPaths);
  });

  for (const path of covering) {
    it(path.description, () => {
      replayPath(path, {
        logic: options.machine,
        recorder,
        assertState: options.assertState,
        expectValue: (actual, expected, message) => expect(actual, message).toEqual(expected),
        ...(options.input !== undefined ? { input: options.input } : {}),
      });
    });
  }

  afterAll(() => {
    expect(recorder.report(options.title).missing).toEqual([]);
  });
  return covering;
}
