/**
 * Generated path tests for XState machines.
 *
 * 1. `@xstate/graph` walks the machine (with explicit `xstate.done.actor.*`, `xstate.error.actor.*` and
 *    `xstate.after.*` events standing in for its actors and timers) and yields the adjacency map.
 * 2. One path per edge: the shortest path to the edge's source state plus the edge itself, so every
 *    reachable transition is taken.
 * 3. Each path is replayed on a real actor with fake actors that never settle and a SimulatedClock;
 *    timer events advance the clock instead of being sent. After each step the settled state is asserted
 *    against the graph's, and the caller's per-state assertions run.
 * 4. Coverage comes from the actor's own inspection events: every state node entered (transient ones
 *    included, from microsteps) and every transition definition taken, against the machine's totals.
 */
import { getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import {
  type AnyActorLogic,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  createActor,
  SimulatedClock,
} from 'xstate';

export interface PathStep {
  readonly event: AnyEventObject;
  readonly state: AnyMachineSnapshot;
}

export interface GeneratedPath {
  readonly description: string;
  readonly steps: readonly PathStep[];
}

export interface PathModelOptions<TInput> {
  readonly machine: AnyStateMachine;
  readonly input?: TInput;
  readonly events: readonly AnyEventObject[];
  /** Distinguishes states by more than their value where guards read context. */
  readonly serializeState: (snapshot: AnyMachineSnapshot) => string;
  /** Edges whose source states share this key (and event) get one path; defaults to `serializeState`. */
  readonly edgeKey?: (snapshot: AnyMachineSnapshot) => string;
}

function eventKey(event: AnyEventObject): string {
  return JSON.stringify(event);
}

function describePath(steps: readonly PathStep[]): string {
  const last = steps[steps.length - 1];
  const target = last ? JSON.stringify(last.state.value) : '?';
  const trail = steps
    .map((step) => (step.event.type === 'xstate.init' ? 'init' : shortEvent(step.event)))
    .join(' → ');
  return `reaches ${target}: ${trail}`;
}

function shortEvent(event: AnyEventObject): string {
  const { type, ...rest } = event;
  const detail = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(',');
  return detail ? `${type}(${detail.slice(0, 60)})` : type;
}

/** One path per edge of the state graph, each starting from the initial state. */
export function generateEdgePaths<TInput>(options: PathModelOptions<TInput>): GeneratedPath[] {
  const traversal = {
    events: options.events as AnyEventObject[],
    serializeState: options.serializeState,
    ...(options.input !== undefined ? { input: options.input } : {}),
  };
  const shortest = getShortestPaths(options.machine, traversal);
  const toState = new Map<string, PathStep[]>();
  for (const path of shortest) {
    toState.set(
      options.serializeState(path.state),
      path.steps.map((step) => ({ event: step.event, state: step.state })),
    );
  }
  const adjacency = getAdjacencyMap(options.machine, traversal);
  const paths: GeneratedPath[] = [];
  const seen = new Set<string>();
  for (const [stateKey, entry] of Object.entries(adjacency)) {
    const prefix = toState.get(stateKey);
    if (!prefix) continue;
    for (const transition of Object.values(entry.transitions) as {
      event: AnyEventObject;
      state: AnyMachineSnapshot;
    }[]) {
      // An event no transition takes in this state is not an edge; sending it would test nothing.
      if (!entry.state.can(transition.event)) continue;
      const next = { event: transition.event, state: transition.state };
      const steps = [...prefix, next];
      // One path per (edge key, event): finer context variants only help the graph reach states.
      const key = `${(options.edgeKey ?? options.serializeState)(entry.state)}|${eventKey(transition.event)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      paths.push({ description: describePath(steps), steps });
    }
  }
  return paths;
}

/** Every state node id and every transition definition of a machine: the coverage denominators. */
export function machineInventory(machine: AnyStateMachine): {
  states: Set<string>;
  transitions: Map<string, string>;
} {
  const states = new Set<string>();
  const transitions = new Map<string, string>();
  const visit = (node: AnyStateNode) => {
    states.add(node.id);
    for (const [eventType, definitions] of node.transitions) {
      definitions.forEach((definition, index) => {
        transitions.set(
          transitionKey(definition, index),
          `${node.id} on ${eventType}${describeGuard(definition)}`,
        );
      });
    }
    (node.always ?? []).forEach((definition: AnyTransitionDefinition, index: number) => {
      transitions.set(transitionKey(definition, index), `${node.id} always${describeGuard(definition)}`);
    });
    for (const child of Object.values(node.states)) visit(child as AnyStateNode);
  };
  visit(machine.root);
  return { states, transitions };
}

function describeGuard(definition: AnyTransitionDefinition): string {
  const guard = definition.guard as { type?: string } | string | undefined;
  if (!guard) return '';
  return ` [${typeof guard === 'string' ? guard : (guard.type ?? 'inline')}]`;
}

function transitionKey(definition: AnyTransitionDefinition, index: number): string {
  return `${definition.source.id}#${definition.eventType}#${index}`;
}

function keyOfTaken(definition: AnyTransitionDefinition): string {
  const list =
    definition.eventType === ''
      ? (definition.source.always ?? [])
      : (definition.source.transitions.get(definition.eventType) ?? []);
  return transitionKey(definition, list.indexOf(definition));
}

/** Collects what a running actor enters and takes, through its inspection events. */
export class CoverageRecorder {
  readonly states = new Set<string>();
  readonly transitions = new Set<string>();

  constructor(private readonly machine: AnyStateMachine) {}

  readonly inspect = (event: {
    type: string;
    actorRef: unknown;
    snapshot?: unknown;
    _transitions?: AnyTransitionDefinition[];
  }) => {
    if (event.type !== '@xstate.microstep' && event.type !== '@xstate.snapshot') return;
    const snapshot = event.snapshot as AnyMachineSnapshot | undefined;
    if (!snapshot || snapshot.machine !== this.machine) return;
    for (const node of snapshot._nodes) this.states.add(node.id);
    for (const definition of event._transitions ?? []) this.transitions.add(keyOfTaken(definition));
  };

  report(title: string): {
    statesCovered: number;
    statesTotal: number;
    transitionsCovered: number;
    transitionsTotal: number;
    missing: string[];
  } {
    const inventory = machineInventory(this.machine);
    const missingStates = [...inventory.states].filter((id) => !this.states.has(id));
    const missingTransitions = [...inventory.transitions.entries()]
      .filter(([key]) => !this.transitions.has(key))
      .map(([, label]) => label);
    const statesCovered = inventory.states.size - missingStates.length;
    const transitionsCovered = inventory.transitions.size - missingTransitions.length;
    console.log(
      `[coverage] ${title}: states ${statesCovered}/${inventory.states.size}, transitions ${transitionsCovered}/${inventory.transitions.size}`,
    );
    for (const id of missingStates) console.log(`[coverage]   missing state ${id}`);
    for (const label of missingTransitions) console.log(`[coverage]   missing transition ${label}`);
    return {
      statesCovered,
      statesTotal: inventory.states.size,
      transitionsCovered,
      transitionsTotal: inventory.transitions.size,
      missing: [
        ...missingStates.map((id) => `state ${id}`),
        ...missingTransitions.map((label) => `transition ${label}`),
      ],
    };
  }
}

export interface ReplayOptions<TInput> {
  readonly logic: AnyActorLogic;
  readonly input?: TInput;
  readonly recorder: CoverageRecorder;
  /** Milliseconds for a named delay, so `xstate.after.<delay>.<state>` advances the clock instead of being sent. */
  readonly delays?: Readonly<Record<string, number>>;
  /** Per-state assertions, run after every step on the settled snapshot. */
  readonly assertState?: (snapshot: AnyMachineSnapshot, step: PathStep) => void;
  readonly expectValue: (actual: unknown, expected: unknown, message: string) => void;
}

/** Replays one generated path on a real actor and asserts each settled state. */
export function replayPath<TInput>(path: GeneratedPath, options: ReplayOptions<TInput>): void {
  const clock = new SimulatedClock();
  const actor = createActor(options.logic, {
    clock,
    inspect: options.recorder.inspect,
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  actor.start();
  try {
    for (const step of path.steps) {
      if (step.event.type !== 'xstate.init') {
        const delay = step.event.type.startsWith('xstate.after.') ? step.event.type.split('.')[2] : undefined;
        const ms = delay !== undefined ? options.delays?.[delay] : undefined;
        if (ms !== undefined) clock.increment(ms);
        else actor.send(step.event);
      }
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      options.expectValue(
        snapshot.value,
        step.state.value,
        `after ${shortEvent(step.event)} in ${path.description}`,
      );
      options.assertState?.(snapshot, step);
    }
  } finally {
    actor.stop();
  }
}

/**
 * From many generated paths, the few that cover the same ground: shortest first, a path is kept when it
 * takes a transition definition or settles in a state value that no kept path did. Every kept path is then
 * replayed as its own asserted test; coverage is still measured on those replays alone.
 */
export function selectCoveringPaths<TInput>(
  paths: readonly GeneratedPath[],
  options: { machine: AnyStateMachine; input?: TInput },
): GeneratedPath[] {
  const takenTransitions = new Set<string>();
  const settledValues = new Set<string>();
  const chosen: GeneratedPath[] = [];
  const byLength = [...paths].sort((a, b) => a.steps.length - b.steps.length);
  for (const path of byLength) {
    const recorder = new CoverageRecorder(options.machine);
    const actor = createActor(options.machine, {
      clock: new SimulatedClock(),
      inspect: recorder.inspect,
      ...(options.input !== undefined ? { input: options.input } : {}),
    });
    actor.start();
    for (const step of path.steps) if (step.event.type !== 'xstate.init') actor.send(step.event);
    actor.stop();
    const values = path.steps.map((step) => JSON.stringify(step.state.value));
    const addsTransition = [...recorder.transitions].some((key) => !takenTransitions.has(key));
    const addsValue = values.some((value) => !settledValues.has(value));
    if (!addsTransition && !addsValue) continue;
    chosen.push(path);
    for (const key of recorder.transitions) takenTransitions.add(key);
    for (const value of values) settledValues.add(value);
  }
  return chosen;
}
