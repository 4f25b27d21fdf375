/**
 * The imperative toast API for product code, sonner style: `toast.add({ title })` returns the toast's id.
 *
 * It only sends events. The toaster actor (a child of the app actor, system id `toaster`) connects to it
 * through its `listenToToastApi` actor when it starts; calls made before that wait here and are delivered
 * in order, so nothing is lost. Machines do not use this module: they send the same events to
 * `system.get('toaster')`.
 */
import type { AnyActorRef } from 'xstate';
import type { ToasterEvent } from '../../machines/toast/toaster.machine';
import { assertToastOptions, type ToastOptions, type ToastPatch } from '../../machines/toast/toaster.utils';
import { afterInput } from './tasks';

type SendToToaster = (event: ToasterEvent) => void;

interface Connection {
  readonly send: SendToToaster;
  readonly toaster: () => AnyActorRef | undefined;
}

let connection: Connection | null = null;
const waiting: ToasterEvent[] = [];
let sequence = 0;

/**
 * Delivers `event` after the input in progress, if any (`afterInput`): a toast shown from a click is then no
 * part of the click's task. Events keep their order.
 */
function dispatch(event: ToasterEvent): void {
  afterInput(() => {
    if (connection) connection.send(event);
    else waiting.push(event);
  });
}

export const toast = {
  /** Shows a toast, or updates the one with the same id in place. Returns the id. */
  add(options: ToastOptions = {}): string {
    assertToastOptions(options);
    sequence += 1;
    const id = options.id ?? `toast-${sequence}`;
    dispatch({ type: 'toast.add', toast: { ...options, id } });
    return id;
  },
  /** Changes the named fields of a shown or waiting toast; a new duration restarts its timer. */
  update(id: string, patch: ToastPatch): void {
    assertToastOptions(patch);
    dispatch({ type: 'toast.update', id, patch });
  },
  /** Closes a shown toast (it leaves after its exit animation) or drops a waiting one. */
  dismiss(id: string): void {
    dispatch({ type: 'toast.dismiss', id });
  },
  /** Removes every toast at once, without animation. */
  clear(): void {
    dispatch({ type: 'toast.clear' });
  },
};

/**
 * Connects the API to a running toaster and delivers what was waiting. Returns the disconnect function,
 * which is the connecting actor's cleanup.
 */
export function connectToastApi(send: SendToToaster, toaster: () => AnyActorRef | undefined): () => void {
  const mine: Connection = { send, toaster };
  connection = mine;
  for (const event of waiting.splice(0)) send(event);
  return () => {
    if (connection === mine) connection = null;
  };
}

export interface ToastDiagnostics {
  /** Toast actors alive under the toaster (shown or closing). */
  readonly liveToastActors: number;
  readonly shown: number;
  readonly queued: number;
}

/** Counts for benchmarks and checks; `null` while no toaster is connected. Never exposed on `window`. */
export function toastDiagnostics(): ToastDiagnostics | null {
  const toaster = connection?.toaster();
  if (!toaster) return null;
  const snapshot = toaster.getSnapshot() as {
    children: Record<string, unknown>;
    context: { entries: readonly unknown[]; queue: readonly unknown[] };
  };
  return {
    liveToastActors: Object.keys(snapshot.children).filter((id) => id.startsWith('toast#')).length,
    shown: snapshot.context.entries.length,
    queued: snapshot.context.queue.length,
  };
}
