/**
 * Generated path tests that read as sentences: every path `@xstate/graph` generates for a machine is replayed on
 * a real actor, and at each step every state the machine is in keeps its promises: named predicates written
 * once per state (which page is shown, which request is in flight and with what input, what the address bar
 * was told, which toast is open, which effects were requested on entry). A broken one fails with its name and
 * the path that broke it:
 *
 *   transition navigation.loading on xstate.done.actor.loadPage promises "the address bar shows the target: …"
 *     — path: init → nav.go(to=/) → session.changed(signedIn=true) → xstate.done.actor.loadPage(…) (step 3 of 3, …)
 *
 * States the machine only passes through (an `always` transition leaves them in the same step) are checked on
 * the microstep in which they were last active. Transitions that promise an effect (a toast sent, a reload
 * requested, a URL pushed) have predicates too, checked on every step that takes them. The coverage of state
 * nodes and transition definitions is printed and must be complete, and a state without a promise, or a
 * promise for a state or transition the machine does not have, fails the run.
 *
 * Timers run on XState's SimulatedClock: a step whose event is `xstate.after.*` moves the clock to the moment
 * the machine's own timer is due; paths the graph allows but the clock cannot (a one-hour check "before" a
 * 250 ms timer) are counted and left out.
 *
 * How to add a machine's path tests: write `tests/machines/<name>/<name>.promises.ts` exporting a map from each
 * state (its path below the root, e.g. `'signedIn.saving'`, and the machine's id for the root: the promises of
 * every step) to a list of `promise('what it promises', (moment) => boolean)`, and optionally a map from a
 * transition (`'<state> on <event>'`, with ` [guard]` for a guarded one, as the coverage report names it) to
 * what taking it promises. Then, in `<name>.machine.test.ts`, provide the machine with inert effects (actors
 * that never answer, actions that do nothing) and make one call inside a `describe`:
 *
 *   registerPathTests({ title: 'pledge machine', machine: inert, events, promises, transitions, minimumPaths: 10 });
 *
 * `events` stand in for the machine's actors and timers (`xstate.done.actor.<id>` with an output,
 * `xstate.error.actor.<id>` with an error, `xstate.after.<delay>.<state id>`) besides its own events;
 * `serializeState` (the state value and context by default) tells the walk which states differ, `edgeKey` which
 * edges count as one; `variants` walk it again with another input. A run then names each state that lacks a
 * promise, each promise that names no state or transition of the machine, and each promise that a path breaks.
 * Helpers for predicates: `running` (the input of a child actor in flight), `requested` (a named action's
 * parameters in this step), `sent` (events sent to a child), `invoked`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import {
  type AnyActorLogic,
  type AnyActorRef,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyTransitionDefinition,
  createActor,
  SimulatedClock,
} from 'xstate';
import { type Effect, EffectRecorder, plain, revive } from './effects';
import {
  CoverageRecorder,
  describeTrail,
  type GeneratedPath,
  generateEdgePaths,
  machineInventory,
  transitionName,
} from './pathTesting';

/** What a promise is checked against: one moment of a replayed path. */
export interface Moment {
  /** The snapshot the state is in: the step's settled one, or the microstep of a state only passed through. */
  readonly snapshot: AnyMachineSnapshot;
  // biome-ignore lint/suspicious/noExplicitAny: each machine's promises read its own context.
  readonly context: any;
  /** False for a state the step only passed through. */
  readonly settled: boolean;
  /**
   * For a state, the settled snapshot before this step (`null` at the start); for a transition, the snapshot it
   * was taken from (the microstep before it, within a step).
   */
  readonly previous: AnyMachineSnapshot | null;
  /** The event of this step (`xstate.init` at the start). */
  readonly event: AnyEventObject;
  /** Every effect the step requested (./effects.ts), in order. */
  readonly effects: readonly Effect[];
  /** The state was not active before this step (it was entered by it). */
  readonly entered: boolean;
}

export interface Promised {
  readonly name: string;
  readonly holds: (moment: Moment) => boolean;
}

/** A named predicate: what a state (or a transition) promises. */
export function promise(name: string, holds: (moment: Moment) => boolean): Promised {
  return { name, holds };
}

/** Promises by state: its path below the root (`navigation.loading`), or the machine's id for the root. */
export type StatePromises = Readonly<Record<string, readonly Promised[]>>;
/** Promises by transition, as the coverage report names it: `navigation.loading on xstate.done.actor.loadPage`. */
export type TransitionPromises = Readonly<Record<string, readonly Promised[]>>;

export interface PathVariant<TInput = unknown> {
  /** Printed beside the title when a machine has several. */
  readonly name: string;
  readonly input?: TInput;
  /** The events that stand in for actors and timers, besides the machine's own. */
  readonly events?: readonly AnyEventObject[];
  readonly serializeState?: (snapshot: AnyMachineSnapshot) => string;
  readonly edgeKey?: (snapshot: AnyMachineSnapshot) => string;
  /** Instead of `events`: the generated paths, for a machine walked in projections. */
  readonly generate?: () => readonly GeneratedPath[];
  /** Fewer generated paths than this means the model no longer reaches what it used to. */
  readonly minimumPaths?: number;
  /** For machines that read the time: the logic and input of a replay, given the replay's simulated clock. */
  readonly onClock?: (now: () => number) => { readonly logic?: AnyActorLogic; readonly input?: TInput };
}

export interface PathTestOptions<TInput = unknown> extends Omit<PathVariant<TInput>, 'name'> {
  /** Printed in the coverage line, e.g. `session machine`. */
  readonly title: string;
  /** The machine with inert effects. */
  readonly machine: AnyStateMachine;
  readonly promises: StatePromises;
  readonly transitions?: TransitionPromises;
  /** Several walks of one machine (other inputs, projections); by default one, from the options above. */
  readonly variants?: readonly PathVariant<TInput>[];
}

interface Broken {
  readonly where: string;
  readonly promise: string;
  readonly path: string;
  readonly detail: string;
}

const shortValue = (value: unknown) => JSON.stringify(value);

function effectsText(effects: readonly Effect[]): string {
  const text = JSON.stringify(effects);
  return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** A state's name in the promises map: its id below the root, the machine's id for the root. */
function stateKey(machine: AnyStateMachine, id: string): string {
  return id === machine.id ? id : id.slice(machine.id.length + 1);
}

/**
 * Replays one path, checking every promise at every step; returns the first promise it breaks, or null. The
 * steps after a broken promise are replayed unchecked (what follows it means little), so coverage stays whole.
 */
function replayPath(
  path: ReplayedPath,
  options: {
    readonly machine: AnyStateMachine;
    readonly logic: AnyActorLogic;
    readonly input: unknown;
    readonly coverage: CoverageRecorder;
    readonly promises: StatePromises;
    readonly transitions: TransitionPromises;
    readonly clock: SimulatedClock;
  },
): { readonly broken: Broken | null; readonly infeasible: boolean } {
  const { machine, clock } = options;
  const effects = new EffectRecorder(() => clock.now());
  let root: AnyActorRef | undefined;
  let microsteps: AnyMachineSnapshot[] = [];
  let taken: { definition: AnyTransitionDefinition; index: number }[] = [];
  const actor = createActor(options.logic, {
    clock,
    inspect: (event) => {
      options.coverage.inspect(event as Parameters<CoverageRecorder['inspect']>[0]);
      effects.inspect(event as unknown as Parameters<EffectRecorder['inspect']>[0]);
      if (event.type === '@xstate.actor' && !root) root = event.actorRef as AnyActorRef;
      if (event.type === '@xstate.microstep' && event.actorRef === root) {
        const index = microsteps.length;
        for (const definition of (event as { _transitions?: AnyTransitionDefinition[] })._transitions ?? []) {
          taken.push({ definition, index });
        }
        microsteps.push(event.snapshot as AnyMachineSnapshot);
      }
    },
    ...(options.input !== undefined ? { input: options.input } : {}),
  });
  const { events } = path;
  let previous: AnyMachineSnapshot | null = null;
  let first: Broken | null = null;
  try {
    for (const [index, event] of events.entries()) {
      microsteps = [];
      taken = [];
      if (index === 0) actor.start();
      else if (event.type.startsWith('xstate.after.')) {
        const due = effects.timers.get(event.type);
        // A path that waits for a timer the clock already fired: what it reached so far still counts.
        if (due === undefined) return { broken: first, infeasible: true };
        clock.increment(due - clock.now());
      } else actor.send(event);
      const snapshot = actor.getSnapshot() as AnyMachineSnapshot;
      const stepEffects = effects.take();
      const before = previous;
      previous = snapshot;
      if (first) continue;
      const activeBefore = new Set<string>(before ? before._nodes.map((node) => node.id) : []);
      const broken = (where: string, name: string, checked: AnyMachineSnapshot): Broken => ({
        where,
        promise: name,
        path: describeTrail(events.slice(0, index + 1)),
        detail: `step ${index} of ${events.length - 1}, value ${shortValue(checked.value)}, effects ${effectsText(stepEffects)}`,
      });

      // Each state active in the settled snapshot, or else in the last microstep that had it.
      const moments = new Map<string, AnyMachineSnapshot>();
      for (const micro of microsteps) for (const node of micro._nodes) moments.set(node.id, micro);
      for (const node of snapshot._nodes) moments.set(node.id, snapshot);
      for (const [id, checked] of moments) {
        const key = stateKey(machine, id);
        const moment: Moment = {
          snapshot: checked,
          context: checked.context,
          settled: checked === snapshot,
          previous: before,
          event,
          effects: stepEffects,
          entered: !activeBefore.has(id),
        };
        for (const promised of options.promises[key] ?? []) {
          if (!first && !promised.holds(moment)) first = broken(`state ${key}`, promised.name, checked);
        }
      }
      if (first) continue;
      for (const { definition, index: micro } of taken) {
        const label = transitionName(machine, definition);
        const moment: Moment = {
          snapshot,
          context: snapshot.context,
          settled: true,
          previous: micro === 0 ? before : (microsteps[micro - 1] ?? before),
          event,
          effects: stepEffects,
          entered: false,
        };
        for (const promised of options.transitions[label] ?? []) {
          if (!first && !promised.holds(moment))
            first = broken(`transition ${label}`, promised.name, snapshot);
        }
      }
    }
  } finally {
    actor.stop();
  }
  return { broken: first, infeasible: false };
}

/** What the promises maps name that the machine does not have, and the states they leave without a promise. */
export function promiseGaps(
  machine: AnyStateMachine,
  promises: StatePromises,
  transitions: TransitionPromises = {},
): string[] {
  const inventory = machineInventory(machine);
  const states = [...inventory.states].map((id) => stateKey(machine, id));
  const labels = new Set(inventory.names.values());
  return [
    ...states
      .filter((key) => (promises[key] ?? []).length === 0)
      .map((key) => `state ${key} promises nothing: name what it shows, requests or keeps`),
    ...Object.keys(promises)
      .filter((key) => !states.includes(key))
      .map((key) => `promises name a state the machine does not have: ${key}`),
    ...Object.keys(transitions)
      .filter((label) => !labels.has(label))
      .map((label) => `promises name a transition the machine does not have: ${label}`),
  ];
}

function variantsOf<TInput>(options: PathTestOptions<TInput>): PathVariant<TInput>[] {
  if (options.variants) return [...options.variants];
  const { title: _t, machine: _m, promises: _p, transitions: _tr, variants: _v, ...variant } = options;
  return [{ name: 'default', ...variant }];
}

/** A path to replay: its events, from `xstate.init` on. */
export interface ReplayedPath {
  readonly description: string;
  readonly events: readonly AnyEventObject[];
}

/**
 * The paths of the last full run, kept in an ignored folder: under Stryker a mutant's run replays them instead of
 * walking the graph again (the walk of the app machine takes most of its path tests' time), as known paths
 * replayed against the mutant.
 */
const CACHE_DIR = join(process.cwd(), 'node_modules/.cache/path-tests');
const cacheFile = (title: string, variant: string) =>
  join(CACHE_DIR, `${`${title} ${variant}`.replace(/[^\w-]+/g, '-')}.json`);

function cachedPaths(title: string, variant: string): ReplayedPath[] | null {
  try {
    const stored = JSON.parse(readFileSync(cacheFile(title, variant), 'utf8')) as ReplayedPath[];
    return stored.map((path) => ({
      ...path,
      events: path.events.map((event) => revive(event) as AnyEventObject),
    }));
  } catch {
    return null;
  }
}

function keepPaths(title: string, variant: string, paths: readonly ReplayedPath[]): void {
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    const stored = paths.map((path) => ({ ...path, events: path.events.map((event) => plain(event)) }));
    writeFileSync(cacheFile(title, variant), JSON.stringify(stored));
  } catch {
    // A read-only checkout: mutation runs walk the graph themselves.
  }
}

function generatedPaths<TInput>(machine: AnyStateMachine, variant: PathVariant<TInput>): ReplayedPath[] {
  const replayed = (paths: readonly GeneratedPath[]) =>
    paths.map((path) => ({ description: path.description, events: path.steps.map((step) => step.event) }));
  if (variant.generate) return replayed(variant.generate());
  if (!variant.events) throw new Error(`path variant ${variant.name} has neither events nor generate`);
  return replayed(
    generateEdgePaths({
      machine,
      events: variant.events,
      serializeState:
        variant.serializeState ?? ((snapshot) => JSON.stringify([snapshot.value, snapshot.context])),
      ...(variant.edgeKey ? { edgeKey: variant.edgeKey } : {}),
      ...(variant.input !== undefined ? { input: variant.input } : {}),
    }),
  );
}

/**
 * Replays paths against the promises: how many the clock could not take, how many were replayed, and each broken
 * promise once, with the first path that broke it.
 */
export function brokenPromises<TInput>(
  paths: readonly ReplayedPath[],
  options: {
    readonly machine: AnyStateMachine;
    readonly promises: StatePromises;
    readonly transitions?: TransitionPromises;
    readonly coverage?: CoverageRecorder;
    readonly variant?: Pick<PathVariant<TInput>, 'input' | 'onClock'>;
  },
): { infeasible: number; replayed: number; messages: string[] } {
  const coverage = options.coverage ?? new CoverageRecorder(options.machine);
  const broken = new Map<string, Broken>();
  let infeasible = 0;
  let replayed = 0;
  for (const path of paths) {
    const clock = new SimulatedClock();
    const onClock = options.variant?.onClock?.(() => clock.now());
    const result = replayPath(path, {
      machine: options.machine,
      logic: onClock?.logic ?? options.machine,
      input: onClock?.input ?? options.variant?.input,
      coverage,
      promises: options.promises,
      transitions: options.transitions ?? {},
      clock,
    });
    if (result.infeasible) infeasible += 1;
    else replayed += 1;
    const failure = result.broken;
    const key = failure ? `${failure.where}|${failure.promise}` : '';
    if (failure && !broken.has(key)) broken.set(key, failure);
  }
  const messages = [...broken.values()].map(
    (failure) => `${failure.where} promises "${failure.promise}" — path: ${failure.path} (${failure.detail})`,
  );
  return { infeasible, replayed, messages };
}

/**
 * Registers a machine's generated path tests in the current `describe`: a check that every state promises
 * something, one test per variant that replays every generated path against the promises, and the coverage.
 */
export function registerPathTests<TInput>(options: PathTestOptions<TInput>): void {
  const { machine, promises } = options;
  const transitions = options.transitions ?? {};
  const variants = variantsOf(options);
  const coverage = new CoverageRecorder(machine);

  it('every state promises something, and every promise names a state or transition it has', () => {
    expect(promiseGaps(machine, promises, transitions)).toEqual([]);
  });

  for (const variant of variants) {
    const label = variants.length > 1 ? ` (${variant.name})` : '';
    it(`every generated path keeps every promise${label}`, { timeout: 300_000 }, () => {
      const underStryker = process.env.STRYKER_MUTATOR_WORKER !== undefined;
      const cached = underStryker ? cachedPaths(options.title, variant.name) : null;
      const paths = cached ?? generatedPaths(machine, variant);
      if (!underStryker) keepPaths(options.title, variant.name, paths);
      const { infeasible, replayed, messages } = brokenPromises(paths, {
        machine,
        promises,
        transitions,
        coverage,
        variant,
      });
      console.log(
        `[paths] ${options.title}${label}: ${paths.length} ${cached ? 'from the last full run' : 'generated'}, ${infeasible} impossible on the clock, ${replayed} replayed against the promises`,
      );
      if (messages.length > 0) {
        throw new Error(
          `${messages.length} broken promise(s), each with the first path that broke it:\n${messages.join('\n')}`,
        );
      }
      expect(paths.length).toBeGreaterThan(variant.minimumPaths ?? options.minimumPaths ?? 0);
    });
  }

  // Under Stryker only the tests that cover a mutant run, so coverage of the whole machine means nothing there.
  if (process.env.STRYKER_MUTATOR_WORKER === undefined) {
    afterAll(() => {
      expect(coverage.report(options.title).missing).toEqual([]);
    });
  }
}

/** The input of the child actor `id` running in the snapshot (`{}` when it has none), or undefined when none runs. */
export function running(snapshot: AnyMachineSnapshot, id: string): Record<string, unknown> | undefined {
  const child = (snapshot.children as Record<string, AnyActorRef | undefined>)[id];
  if (!child) return undefined;
  const input = (child as { options?: { input?: unknown } }).options?.input;
  return (input ?? {}) as Record<string, unknown>;
}

/** The parameters of every `action` the step requested, in order (`undefined` for one without). */
export function requested(moment: Moment, action: string): unknown[] {
  return moment.effects.flatMap((effect) =>
    'action' in effect && effect.action === action ? [effect.params] : [],
  );
}

/** The events the step sent to the child `to` (by its id), in order. */
export function sent(moment: Moment, to: string): AnyEventObject[] {
  return moment.effects.flatMap((effect) =>
    'sendTo' in effect && effect.sendTo === to ? [effect.event as AnyEventObject] : [],
  );
}

/** Whether the step invoked or spawned an actor of logic `src` (by name) or id. */
export function invoked(moment: Moment, src: string): boolean {
  return moment.effects.some((effect) => 'invoke' in effect && (effect.invoke === src || effect.id === src));
}
