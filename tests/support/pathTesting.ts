/**
 * Generated path tests for XState machines.
 *
 * 1. `@xstate/graph` walks the machine (with explicit `xstate.done.actor.*`, `xstate.error.actor.*` and
 *    `xstate.after.*` events standing in for its actors and timers) and yields the adjacency map.
 * 2. One path per edge: the shortest path to the edge's source state plus the edge itself, so every
 *    reachable transition is taken.
 * 3. `pathPromises.ts` replays them on a real actor with a SimulatedClock and checks, at every step, what
 *    each state the machine is in promises.
 * 4. Coverage comes from the actor's own inspection events: every state node entered (transient ones
 *    included, from microsteps) and every transition definition taken, against the machine's totals.
 */
import { getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import type {
  AnyEventObject,
  AnyMachineSnapshot,
  AnyStateMachine,
  AnyStateNode,
  AnyTransitionDefinition,
  StateValue,
} from 'xstate';

export interface PathStep {
  readonly event: AnyEventObject;
  readonly state: AnyMachineSnapshot;
}

export interface GeneratedPath {
  readonly description: string;
  readonly steps: readonly PathStep[];
  /** The input the path was generated with; replays use it over their own, so projections may differ. */
  readonly input?: unknown;
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

/** `reaches <value>: init → event → …`, the name a path has in failures. */
export function describePath(steps: readonly PathStep[]): string {
  const last = steps[steps.length - 1];
  const target = last ? JSON.stringify(last.state.value) : '?';
  const trail = steps
    .map((step) => (step.event.type === 'xstate.init' ? 'init' : shortEvent(step.event)))
    .join(' → ');
  return `reaches ${target}: ${trail}`;
}

/** `init → nav.go(to=/) → …`: a path's events as failures print them. */
export function describeTrail(events: readonly AnyEventObject[]): string {
  return events.map((event) => (event.type === 'xstate.init' ? 'init' : shortEvent(event))).join(' → ');
}

function shortEvent(event: AnyEventObject): string {
  const { type, ...rest } = event;
  const detail = Object.entries(rest)
    .map(([key, value]) => `${key}=${describeValue(value)}`)
    .join(',');
  return detail ? `${type}(${detail.slice(0, 60)})` : type;
}

function describeValue(value: unknown): string {
  if (value instanceof Error) return `Error(${value.message})`;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
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
      paths.push({
        description: describePath(steps),
        steps,
        ...(options.input !== undefined ? { input: options.input } : {}),
      });
    }
  }
  return paths;
}

/**
 * Every state node id and every transition definition of a machine: the coverage denominators. `names` are
 * the transitions as promises name them: the source below the root (the machine's id for the root), e.g.
 * `navigation.loading on xstate.done.actor.loadPage` or `navigation.guarding always [hasGuardFailure]`.
 */
export function machineInventory(machine: AnyStateMachine): {
  states: Set<string>;
  transitions: Map<string, string>;
  names: Map<string, string>;
} {
  const states = new Set<string>();
  const transitions = new Map<string, string>();
  const names = new Map<string, string>();
  const relative = (id: string) => (id === machine.id ? id : id.slice(machine.id.length + 1));
  const add = (node: AnyStateNode, definition: AnyTransitionDefinition, index: number, on: string) => {
    const key = transitionKey(definition, index);
    transitions.set(key, `${node.id} ${on}${describeGuard(definition)}`);
    names.set(key, `${relative(node.id)} ${on}${describeGuard(definition)}`);
  };
  const visit = (node: AnyStateNode) => {
    states.add(node.id);
    for (const [eventType, definitions] of node.transitions) {
      definitions.forEach((definition, index) => {
        add(node, definition, index, `on ${eventType}`);
      });
    }
    (node.always ?? []).forEach((definition: AnyTransitionDefinition, index: number) => {
      add(node, definition, index, 'always');
    });
    for (const child of Object.values(node.states)) visit(child as AnyStateNode);
  };
  visit(machine.root);
  return { states, transitions, names };
}

const inventories = new WeakMap<AnyStateMachine, ReturnType<typeof machineInventory>>();

/** A transition definition that was taken, by the name promises give it (see `machineInventory`). */
export function transitionName(machine: AnyStateMachine, definition: AnyTransitionDefinition): string {
  let inventory = inventories.get(machine);
  if (!inventory) {
    inventory = machineInventory(machine);
    inventories.set(machine, inventory);
  }
  return inventory.names.get(keyOfTaken(definition)) ?? `(unknown) ${definition.eventType}`;
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
    // By id: a machine made per clock (the toaster's factory) has the same state nodes as the one measured.
    if (snapshot?.machine?.id !== this.machine.id) return;
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

/**
 * The innermost active state's name, for machines whose states nest (`{ shown: { resting: 'open' } }` is
 * `open`): tests name the state they expect, not the hierarchy that shares its handlers.
 */
export function leafState(value: StateValue): string {
  if (typeof value === 'string') return value;
  const [child] = Object.values(value);
  return child === undefined ? '' : leafState(child);
}
