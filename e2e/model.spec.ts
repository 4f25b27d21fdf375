/**
 * Model-based tests of the whole app: `@xstate/graph` walks the user model in e2e/model/appModel.ts, one path
 * reaches every state by its shortest route and one more takes every transition, and each path is replayed
 * in Chromium against the production server, asserting the model state's `meta.assert` after every step.
 *
 * The library skips a state without assertions and an event without a driver silently; here either one fails
 * the run before any browser starts, and the coverage of the kept paths is printed and must be complete.
 */
import { getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import type { AnyMachineSnapshot, AnyStateNode } from 'xstate';
import { expect, test } from './fixtures';
import { type Assertion, appModel, drivers } from './model/appModel';

interface Step {
  readonly event: string;
  /** The model state the step leads to. */
  readonly state: string;
}

interface ModelPath {
  readonly name: string;
  readonly steps: readonly Step[];
}

function stateNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => stateNodes(child as AnyStateNode))];
}

const leafStates = stateNodes(appModel.root).filter((node) => Object.keys(node.states).length === 0);
const transitions = leafStates.flatMap((node) =>
  [...node.transitions.keys()].map((event) => `${node.key} --${event}-->`),
);

/** The one state the model is in (it is flat: no parallel or nested states to combine). */
function stateOf(snapshot: AnyMachineSnapshot): string {
  return String(snapshot.value);
}

function assertionOf(state: string): Assertion {
  const meta = appModel.root.states[state]?.meta as { assert?: Assertion } | undefined;
  if (!meta?.assert) throw new Error(`model state "${state}" has no assertions`);
  return meta.assert;
}

/** Fails the run, before any browser starts, for what @xstate/graph would skip without a word. */
function checkModel(): void {
  const missing = leafStates.filter((node) => !(node.meta as { assert?: unknown } | undefined)?.assert);
  if (missing.length > 0)
    throw new Error(`model states without assertions: ${missing.map((node) => node.key).join(', ')}`);
  const events = new Set(leafStates.flatMap((node) => [...node.transitions.keys()]));
  const undriven = [...events].filter((event) => !drivers[event]);
  if (undriven.length > 0) throw new Error(`model events without a driver: ${undriven.join(', ')}`);
  const unused = Object.keys(drivers).filter((event) => !events.has(event));
  if (unused.length > 0) throw new Error(`drivers for no model event: ${unused.join(', ')}`);
}

function generatePaths(): ModelPath[] {
  const toState = new Map<string, Step[]>();
  for (const path of getShortestPaths(appModel)) {
    toState.set(
      stateOf(path.state),
      path.steps
        .filter((step) => step.event.type !== 'xstate.init')
        .map((step) => ({ event: step.event.type, state: stateOf(step.state) })),
    );
  }
  const candidates: Step[][] = [...toState.values()];
  // Every transition: the shortest way to its source, then the transition itself.
  for (const entry of Object.values(getAdjacencyMap(appModel, {}))) {
    const prefix = toState.get(stateOf(entry.state));
    if (!prefix) continue;
    for (const next of Object.values(entry.transitions) as {
      event: { type: string };
      state: AnyMachineSnapshot;
    }[]) {
      candidates.push([...prefix, { event: next.event.type, state: stateOf(next.state) }]);
    }
  }
  const key = (steps: readonly Step[]) => steps.map((step) => step.event).join(' ');
  // A path that another one starts with adds nothing: keep the longest of each line.
  const kept = candidates
    .filter((steps) => steps.length > 0)
    .filter(
      (steps, index, all) =>
        !all.some(
          (other, otherIndex) =>
            otherIndex !== index &&
            (other.length > steps.length || (other.length === steps.length && otherIndex < index)) &&
            `${key(other)} `.startsWith(`${key(steps)} `),
        ),
    );
  return kept.map((steps) => ({
    name: steps.map((step) => `${step.event} → ${step.state}`).join(', '),
    steps,
  }));
}

checkModel();
const paths = generatePaths();
const coveredStates = new Set(['blank', ...paths.flatMap((path) => path.steps.map((step) => step.state))]);
const coveredTransitions = new Set(
  paths.flatMap((path) =>
    path.steps.map(
      (step, index) => `${index === 0 ? 'blank' : path.steps[index - 1]?.state} --${step.event}-->`,
    ),
  ),
);

test.describe('app model', () => {
  test('the paths cover every state and transition of the model', () => {
    console.log(
      `[model] app model: states ${coveredStates.size}/${leafStates.length}, transitions ${coveredTransitions.size}/${transitions.length}, ${paths.length} paths`,
    );
    expect(leafStates.filter((node) => !coveredStates.has(node.key)).map((node) => node.key)).toEqual([]);
    expect(transitions.filter((transition) => !coveredTransitions.has(transition))).toEqual([]);
  });

  for (const path of paths) {
    test(path.name, async ({ page }) => {
      await assertionOf('blank')(page);
      for (const step of path.steps) {
        await test.step(`${step.event} → ${step.state}`, async () => {
          const driver = drivers[step.event];
          if (!driver) throw new Error(`no driver for ${step.event}`);
          await driver(page);
          await assertionOf(step.state)(page);
        });
      }
    });
  }
});
