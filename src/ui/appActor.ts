import { createActorContext, useSelector } from '@xstate/react';
import { appMachine } from '../../machines/app.machine';
import { type AppView, appView } from '../../machines/app.view';
import { type SessionView, sessionView } from '../../machines/session.view';
import { type ToasterView, toasterView } from '../../machines/toaster.view';

/** The root actor, provided once by `src/main.tsx` with the browser's implementations. */
export const AppActor = createActorContext(appMachine);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}

/**
 * Same fields, same values (attribute objects compared field by field too): a view object built again
 * from an unchanged snapshot is no reason to re-render.
 */
export function sameView<T extends object>(a: T, b: T): boolean {
  const keys = Object.keys(a) as (keyof T)[];
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => {
      const left = a[key];
      const right = b[key];
      return Object.is(left, right) || (isPlainObject(left) && isPlainObject(right) && sameView(left, right));
    })
  );
}

/** Everything the app's own views need from the app machine (machines/app.view.ts). */
export function useAppView(): AppView {
  return AppActor.useSelector(appView, sameView);
}

/** Everything a view needs from the session child (machines/session.view.ts). */
export function useSessionView(): SessionView {
  const session = AppActor.useSelector((snapshot) => snapshot.children.session);
  return useSelector(session, sessionView, sameView);
}

export function useSessionRef() {
  return AppActor.useSelector((snapshot) => snapshot.children.session);
}

/** The toaster child (system id `toaster`), to send viewport events to. */
export function useToasterRef() {
  return AppActor.useSelector((snapshot) => snapshot.children.toaster);
}

/** Everything the toast viewport needs from the toaster child (machines/toaster.view.ts). */
export function useToasterView(): ToasterView {
  return useSelector(useToasterRef(), toasterView, sameView);
}
