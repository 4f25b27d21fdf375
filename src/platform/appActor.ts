import { useSelector } from '@xstate/react';
import {
  createContext,
  createElement,
  type ReactNode,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { flushSync } from 'react-dom';
import type { Actor } from 'xstate';
import type { AppEvent, appMachine } from '../../machines/app/app.machine';
import {
  type AppCommands,
  type AppSnapshot,
  type AppView,
  appCommands,
  appView,
  prefetchView,
} from '../../machines/app/app.view';
import {
  type ColorModeCommands,
  type ColorModeView,
  colorModeCommands,
  colorModeView,
} from '../../machines/colorMode/colorMode.view';
import {
  type SessionCommands,
  type SessionView,
  sessionCommands,
  sessionView,
} from '../../machines/session/session.view';
import {
  type ToasterCommands,
  type ToasterView,
  toasterCommands,
  toasterView,
} from '../../machines/toast/toaster.view';
import { pageRendered } from './arrival';
import type { ManifestSource } from './prefetch';

/** The app's root actor, as `createActor(appMachine provided with the browser's implementations)` makes it. */
export type AppActorRef = Actor<typeof appMachine>;

const ActorContext = createContext<AppActorRef | null>(null);

/**
 * Provides the app actor, made before React renders (src/start.tsx creates it in a task of its own: computing
 * its first snapshot, its children's too, is not then part of hydration's longest task) and started once React has put
 * the tree on the page, after every view below has subscribed. Never stopped by React: it lives as long as the
 * page does, so StrictMode's second run of the effect (development) finds it running, and `start()` on a
 * running actor does nothing. The build's prerenderer renders it with an actor it never starts.
 */
export function AppActorProvider({
  actor,
  children,
}: {
  readonly actor: AppActorRef;
  readonly children: ReactNode;
}) {
  useEffect(() => {
    actor.start();
  }, [actor]);
  // React 19: a context renders as its own provider.
  return createElement(ActorContext, { value: actor }, children);
}

/** The app actor and a selector over it, for this module's hooks (components use the view hooks below). */
export const AppActor = {
  useActorRef(): AppActorRef {
    const actor = useContext(ActorContext);
    if (!actor) throw new Error('An app hook was used outside <AppActorProvider> (src/Root.tsx).');
    return actor;
  },
  useSelector<T>(selector: (snapshot: AppSnapshot) => T, compare?: (a: T, b: T) => boolean): T {
    return useSelector(AppActor.useActorRef(), selector, compare);
  },
};

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

const CommittedView = createContext<AppView | null>(null);

/**
 * Mirrors the app machine's view into React state. A selector on the actor (`useSyncExternalStore`) renders
 * every change synchronously, in the task that sent the event: a navigation whose page and data were prefetched
 * commits in microtasks, and the whole new page rendered before the task could end. As state, React renders it
 * in a task of its own right after, in one piece (a transition's 5 ms slices would let other work and frames in
 * between, and the new page would come up later, over more frames). Inputs send their events
 * after the frame they asked for (`afterInput`, src/platform/tasks.ts), so none of this is part of their task.
 * The machine stays the one source; this is only when React draws it. Page arrival (focus, scroll,
 * announcement) waits for that drawing: `pageRendered` runs it once the latest view is in the DOM. A new page
 * replaces the old one in one frame, without a cross-fade (docs/decisions/no-cross-fade.md: a view transition
 * first holds the old page on screen for a frame to capture it).
 */
export function AppViewMirror({ children }: { readonly children: ReactNode }) {
  const actor = AppActor.useActorRef();
  const [view, setView] = useState(() => appView(actor.getSnapshot()));
  const latest = useRef(view);
  const rendering = useRef(false);
  useEffect(() => {
    const update = (snapshot: AppSnapshot) => {
      const next = appView(snapshot);
      // Nothing new to draw: an arrival need not wait for a render that will not come.
      if (sameView(latest.current, next)) {
        if (!rendering.current) pageRendered();
        return;
      }
      const previous = latest.current;
      latest.current = next;
      rendering.current = true;
      // A new page is drawn in the task that committed it: rendered in a task of its own, it would leave the
      // browser a frame of the old page in between. Only a new page: the busy flag that
      // comes first in the same task needs no render of its own.
      if (previous.pageShown && next.pageKey !== previous.pageKey) flushSync(() => setView(next));
      else setView(next);
    };
    // Subscribed before the actor starts (the provider starts it in its own effect, which runs after this one).
    return actor.subscribe(update).unsubscribe;
  }, [actor]);
  // After React has put the latest view into the DOM, before the browser paints it.
  useLayoutEffect(() => {
    if (view !== latest.current) return;
    rendering.current = false;
    pageRendered();
  }, [view]);
  // React 19: a context renders as its own provider.
  return createElement(CommittedView, { value: view }, children);
}

/** Everything the app's own views need from the app machine (machines/app/app.view.ts), as React last drew it. */
export function useAppView(): AppView {
  // Always inside <AppViewMirror> (src/Root.tsx), which provides a view from its first render.
  return useContext(CommittedView) as AppView;
}

/**
 * What components may ask of the app machine (machines/app/app.view.ts): `go`, `reportRenderError`, `needManifest`.
 * Components never send the app actor an event themselves (tests/ui/viewsAndCommands.test.ts checks it).
 */
export function useAppCommands(): AppCommands {
  const actor = AppActor.useActorRef();
  return useMemo(() => appCommands((event) => actor.send(event)), [actor]);
}

/** The app actor as the manifest source uses it. */
interface ManifestActor {
  getSnapshot(): AppSnapshot;
  subscribe(listener: (snapshot: AppSnapshot) => void): { unsubscribe(): void };
  send(event: AppEvent): void;
}

/**
 * The build manifest as link prefetching waits for it (src/platform/prefetch.ts): the app machine's prefetch
 * view, once the manifest has loaded or failed; waiting with `now` asks for it at once (`needManifest`).
 */
export function manifestSourceOf(actor: ManifestActor): ManifestSource {
  const { needManifest } = appCommands((event) => actor.send(event));
  return {
    settled: () => prefetchView(actor.getSnapshot()) ?? undefined,
    whenSettled: (now) =>
      new Promise((resolve) => {
        // The first snapshot with the manifest's word settles it: the one now, or one to come.
        const settle = (snapshot: AppSnapshot) => {
          const view = prefetchView(snapshot);
          if (view) {
            subscription.unsubscribe();
            resolve(view);
          }
          return view;
        };
        const subscription = actor.subscribe(settle);
        if (!settle(actor.getSnapshot()) && now) needManifest();
      }),
  };
}

/** The app actor's build manifest for link prefetching (manifestSourceOf). */
export function useManifestSource(): ManifestSource {
  const actor = AppActor.useActorRef();
  return useMemo(() => manifestSourceOf(actor), [actor]);
}

/** Everything a view needs from the session child, and its commands (machines/session/session.view.ts). */
export function useSessionView(): SessionView & SessionCommands {
  const session = AppActor.useSelector((snapshot) => snapshot.children.session);
  const view = useSelector(session, sessionView, sameView);
  return { ...view, ...sessionCommands(session) };
}

/** Everything the toast viewport needs from the toaster child, and its commands (machines/toast/toaster.view.ts). */
export function useToasterView(): ToasterView & ToasterCommands {
  const toaster = AppActor.useSelector((snapshot) => snapshot.children.toaster);
  const view = useSelector(toaster, toasterView, sameView);
  return { ...view, ...toasterCommands(toaster) };
}

/** Everything a colour-mode control needs from the colour-mode child, and its command (machines/colorMode/colorMode.view.ts). */
export function useColorModeView(): ColorModeView & ColorModeCommands {
  const colorMode = AppActor.useSelector((snapshot) => snapshot.children.colorMode);
  const view = useSelector(colorMode, colorModeView, sameView);
  return { ...view, ...colorModeCommands(colorMode) };
}
