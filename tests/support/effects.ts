/**
 * Records every effect a running machine requests, from the actor's inspection events, so path tests can
 * assert what was asked for and not only where the machine ended up:
 *
 * - `{ action, params }`: a named action with its resolved parameters (assignments are not effects:
 *   promises read the context for them);
 * - `{ invoke, id, input }`: an actor the machine invoked or spawned, with its input;
 * - `{ stop }`: a child the machine stopped (an invoke left behind by its state, a spawned toast);
 * - `{ sendTo, event }`: an event the machine sent to one of its children;
 * - `{ raise }`: an event the machine sent itself; `{ timer, ms }` and `{ cancel }`: its delayed events.
 *
 * Only the root actor's effects count: the children's own are theirs to test.
 */
import type { AnyActorRef, AnyEventObject } from 'xstate';

export type Effect =
  | { readonly action: string; readonly params?: unknown }
  | { readonly invoke: string; readonly id: string; readonly input?: unknown }
  | { readonly stop: string }
  | { readonly sendTo: string; readonly event: unknown }
  | { readonly raise: unknown }
  | { readonly timer: string; readonly ms: number }
  | { readonly cancel: string };

interface InspectionEvent {
  readonly type: string;
  readonly actorRef: AnyActorRef;
  readonly sourceRef?: AnyActorRef;
  readonly event?: AnyEventObject;
  readonly action?: { readonly type: string; readonly params?: Record<string, unknown> };
}

/** Plain data for comparison and for stored events (reports): actors by id, errors by message, no functions. */
export function plain(value: unknown, depth = 0): unknown {
  if (depth > 12) return '[deep]';
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'function') return '[function]';
  // JSON has no Infinity (a toast that never closes by itself); `revive` restores it.
  if (typeof value === 'number' && !Number.isFinite(value)) return { $number: String(value) };
  if (typeof value !== 'object') return value;
  // `revive` turns it back into an Error, so a stored event replays as it was sent.
  if (value instanceof Error) {
    // Own fields too (a status code on an API error), which machines read as well.
    const fields = Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, plain(item, depth + 1)]),
    );
    return { $error: value.message, ...fields };
  }
  if (typeof AbortSignal !== 'undefined' && value instanceof AbortSignal) return '[signal]';
  if ('sessionId' in value && 'send' in value) return { ref: (value as AnyActorRef).id };
  if (Array.isArray(value)) return value.map((item) => plain(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (item === undefined) continue;
    out[key] = plain(item, depth + 1);
  }
  return out;
}

/** The inverse of `plain` for events read back (a report): errors become Errors again. */
export function revive(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(revive);
  const record = value as Record<string, unknown>;
  if (typeof record.$error === 'string') {
    const { $error, ...fields } = record;
    return Object.assign(new Error($error), revive(fields));
  }
  if (typeof record.$number === 'string' && Object.keys(record).length === 1) return Number(record.$number);
  return Object.fromEntries(Object.entries(record).map(([key, item]) => [key, revive(item)]));
}

function srcName(actorRef: AnyActorRef): string {
  // Named logic by its name; inline logic (XState calls it `xstate.invoke.<n>.<machine>`) by the actor id.
  const src = (actorRef as { src?: unknown }).src;
  return typeof src === 'string' && !src.startsWith('xstate.invoke.') ? src : actorRef.id;
}

export class EffectRecorder {
  private root: AnyActorRef | undefined;
  private effects: Effect[] = [];
  /** Delayed events still to come, by event type: when they are due on the simulated clock. */
  readonly timers = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  readonly inspect = (inspection: InspectionEvent) => {
    const { actorRef } = inspection;
    if (inspection.type === '@xstate.actor') {
      const parent = (actorRef as { _parent?: AnyActorRef })._parent;
      if (!parent) {
        this.root ??= actorRef;
        return;
      }
      if (parent !== this.root) return;
      const input = (actorRef as { options?: { input?: unknown } }).options?.input;
      this.effects.push({
        invoke: srcName(actorRef),
        id: actorRef.id,
        ...(input !== undefined ? { input: plain(input) } : {}),
      });
      return;
    }
    if (inspection.type === '@xstate.event') {
      const { sourceRef, event } = inspection;
      if (!event || sourceRef !== this.root || sourceRef === undefined) return;
      if (actorRef === this.root) {
        // A delayed event of its own arrives: the timer is spent.
        this.timers.delete(event.type);
        return;
      }
      if (event.type === 'xstate.init') return;
      this.effects.push({ sendTo: actorRef.id, event: plain(event) });
      return;
    }
    if (inspection.type !== '@xstate.action' || actorRef !== this.root || !inspection.action) return;
    const { type, params } = inspection.action;
    switch (type) {
      case 'xstate.spawnChild':
      case 'xstate.sendTo':
        // Recorded as the actor it created and the event it delivered.
        return;
      case 'xstate.raise': {
        const event = params?.event as AnyEventObject;
        const delay = params?.delay;
        if (typeof delay === 'number') {
          this.timers.set(event.type, this.now() + delay);
          this.effects.push({ timer: event.type, ms: delay });
        } else {
          this.effects.push({ raise: plain(event) });
        }
        return;
      }
      case 'xstate.cancel': {
        const sendId = String(params?.sendId);
        this.timers.delete(sendId);
        this.effects.push({ cancel: sendId });
        return;
      }
      case 'xstate.stopChild': {
        // Its resolved parameter is the child itself (or nothing when the child was already gone).
        const child = params as unknown as AnyActorRef | undefined;
        this.effects.push({ stop: child?.id ?? '(none)' });
        return;
      }
      default:
        this.effects.push(params === undefined ? { action: type } : { action: type, params: plain(params) });
    }
  };

  /** The effects requested since the last call. */
  take(): Effect[] {
    const taken = this.effects;
    this.effects = [];
    return taken;
  }
}
