import { createBrowserHistory } from 'history';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createActor, type InspectionEvent, type Observer } from 'xstate';
import { routes } from '../core/routes';
import type { AppInput } from '../machines/app/app.machine';
import { bootPage } from '../machines/app/app.navigation';
import { config } from './config';
import { importPage, loadPage, revalidatePage } from './pages/registry';
import { appInputFrom, createBrowserApp } from './platform/app';
import type { EventLog } from './platform/eventLog';
import { whenIdle } from './platform/lazyLoad';
import { readInlinePayload } from './platform/payload';
import { connectPrefetch } from './platform/prefetch';
import { nextTask } from './platform/tasks';
import { Root } from './Root';

/** The event log always; the Stately inspector too when asked for. */
function inspectors(
  eventLog: EventLog,
  dev: Observer<InspectionEvent> | undefined,
): Observer<InspectionEvent> {
  if (!dev) return eventLog.inspect;
  return {
    next: (event) => {
      eventLog.inspect.next?.(event);
      dev.next?.(event);
    },
  };
}

async function loadInspector(): Promise<Observer<InspectionEvent> | undefined> {
  if (!import.meta.env.DEV || !new URLSearchParams(window.location.search).has('inspect')) return undefined;
  const { createInspector } = await import('./platform/inspector');
  return createInspector();
}

/**
 * A prerendered document carries its page's data inline: the app machine then boots on that page, settled,
 * and React hydrates the HTML instead of replacing it. That needs the page's chunk before the first render
 * (the HTML preloads it). Anything amiss (no payload, another build's, a chunk that will not load) and the
 * app starts as an SPA, exactly as on a page that was never prerendered.
 */
async function prerenderedPage(): Promise<AppInput['initial']> {
  // The payload names the path and query it was rendered for (a later page of the landing page's list,
  // `/?after=…`); any other query (sign-in's return-to) may change the page, so it renders from scratch.
  const payload = readInlinePayload();
  if (!payload) return undefined;
  const { pathname, search, hash } = window.location;
  const initial = { fullPath: `${pathname}${search}${hash}`, data: payload.data };
  const page = bootPage(initial, routes);
  if (!page?.route) return undefined;
  let title: string | undefined;
  try {
    title = (await importPage(page.route)).title?.(payload.data);
  } catch {
    return undefined;
  }
  return { ...initial, title };
}

/**
 * Starts the app in `#root` (src/main.tsx imports this module last, once React, XState and the machines are
 * evaluated): hydrates a prerendered page, or renders from scratch.
 */
export async function start(eventLog: EventLog): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element to mount into.');
  // The inspector is for development only: a production build carries neither it nor the code that joins it.
  const [devInspect, initial] = await Promise.all([
    import.meta.env.DEV ? loadInspector() : undefined,
    prerenderedPage(),
  ]);
  const inspect = import.meta.env.DEV ? inspectors(eventLog, devInspect) : eventLog.inspect;
  if (initial) eventLog.log.boot = { path: initial.fullPath, title: null };
  const logic = createBrowserApp(createBrowserHistory(), { loadPage, revalidatePage });
  connectPrefetch(importPage);
  const input: AppInput = { ...appInputFrom(config), ...(initial ? { initial } : {}) };
  // The actor's first snapshot (its children's too) in a task of its own, before React's: together they would
  // make hydration's longest task. React starts it once the tree is on the page (AppActorProvider).
  await nextTask();
  const actor = createActor(logic, { input, inspect });
  await nextTask();
  const root = <Root actor={actor} />;
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the main thread
  // for the whole tree (the HTML is on screen and readable meanwhile; an event on a part not hydrated yet
  // makes React hydrate that part first).
  if (initial) {
    startTransition(() => {
      hydrateRoot(container, root);
    });
  } else createRoot(container).render(root);
  // The font strikes other pages draw in, asked for while the browser idles rather than in their first frame (a
  // chunk of its own, fetched then; without it the warm-up is skipped and nothing else is lost).
  whenIdle(() => {
    import('./platform/fonts').then(
      ({ warmTypeScale }) => warmTypeScale(),
      () => {},
    );
  }, 5000);
}
