import { createActorContext, useSelector } from '@xstate/react';
import { appMachine } from '../../machines/app.machine';
import { type AppView, appView, isPageShown } from '../../machines/app.view';
import {
  type ColorModeCommands,
  type ColorModeView,
  colorModeCommands,
  colorModeView,
} from '../../machines/colorMode.view';
import {
  type SessionCommands,
  type SessionView,
  sessionCommands,
  sessionView,
} from '../../machines/session.view';
import {
  type ToasterCommands,
  type ToasterView,
  toasterCommands,
  toasterView,
} from '../../machines/toaster.view';

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

/** The first page (or the error page instead of it) is on screen; re-renders only when that changes. */
export function usePageShown(): boolean {
  return AppActor.useSelector(isPageShown);
}

/** Everything a view needs from the session child, and its commands (machines/session.view.ts). */
export function useSessionView(): SessionView & SessionCommands {
  const session = AppActor.useSelector((snapshot) => snapshot.children.session);
  const view = useSelector(session, sessionView, sameView);
  return { ...view, ...sessionCommands(session) };
}

/** The toaster child (system id `toaster`), to send viewport events to. */
export function useToasterRef() {
  return AppActor.useSelector((snapshot) => snapshot.children.toaster);
}

/** Everything the toast viewport needs from the toaster child, and its commands (machines/toaster.view.ts). */
export function useToasterView(): ToasterView & ToasterCommands {
  const toaster = useToasterRef();
  const view = useSelector(toaster, toasterView, sameView);
  return { ...view, ...toasterCommands(toaster) };
}

/** Everything a colour-mode control needs from the colour-mode child, and its command (machines/colorMode.view.ts). */
export function useColorModeView(): ColorModeView & ColorModeCommands {
  const colorMode = AppActor.useSelector((snapshot) => snapshot.children.colorMode);
  const view = useSelector(colorMode, colorModeView, sameView);
  return { ...view, ...colorModeCommands(colorMode) };
}
