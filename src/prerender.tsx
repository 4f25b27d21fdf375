/**
 * The build-time renderer (build/prerenderPages.ts loads it; the browser never does). It renders one
 * prerendered path through the same route table, page loader, app machine, `App`, layout and page
 * components as the browser: the machine boots on the page with the loaded data (input `initial`) and is
 * never started, so no effect runs; the session is unknown, so the page is what a signed-out visitor sees
 * first, which is also the browser's first render when it hydrates.
 */
import { renderToString } from 'react-dom/server';
import { createActor, fromCallback, fromPromise } from 'xstate';
import type { PageRenderer, PreviewImage, RenderedPage } from '../core/payload';
import { routes } from '../core/routes';
import {
  type AppEvent,
  appMachine,
  type LoadedPage,
  type LoadPageInput,
  type ReloadClaim,
  type RevalidateInput,
} from '../machines/app/app.machine';
import { bootPage } from '../machines/app/app.navigation';
import { appView } from '../machines/app/app.view';
import { config } from './config';
import { importPage } from './pages/registry';
import { appInputFrom } from './platform/app';
import { createBrowserColorMode } from './platform/colorMode';
import { provideFormState } from './platform/formState';
import { imageUrl } from './platform/images';
import { browserSessionMachine } from './platform/session';
import { createBrowserToaster } from './platform/toaster';
import { Root } from './Root';

const unused = (name: string) => () => {
  throw new Error(`${name} runs only in the browser`);
};
const idle = <E extends AppEvent, I>() => fromCallback<E, I>(() => () => {});
const never = <T, I>() => fromPromise<T, I>(() => new Promise<T>(() => {}));

/**
 * The app machine with every effect inert: it is never started at build, so none of them is ever called.
 * The children are the browser's own (created, never started), so their first snapshots, which the view
 * reads, are the ones the browser hydrates with.
 */
const buildTimeApp = appMachine.provide({
  actors: {
    session: browserSessionMachine,
    toaster: createBrowserToaster(config.toast),
    colorMode: createBrowserColorMode(config.colorMode),
    listenToHistory: idle<AppEvent, { reportStart: boolean }>(),
    watchPage: idle<AppEvent, unknown>(),
    loadPage: never<LoadedPage, LoadPageInput>(),
    revalidatePage: never<LoadedPage, RevalidateInput>(),
    detectCrawler: never<boolean, unknown>(),
    fetchManifest: never<unknown, { buildId: string }>(),
    fetchLatestBuild: never<unknown, unknown>(),
    claimReload: never<ReloadClaim, { path: string }>(),
  },
  actions: {
    updateAddressBar: unused('updateAddressBar'),
    loadDocument: unused('loadDocument'),
    logSuppressedError: unused('logSuppressedError'),
    reportRejectedTarget: unused('reportRejectedTarget'),
    logManifestFetchError: unused('logManifestFetchError'),
    logManifestMatcherError: unused('logManifestMatcherError'),
    notifyUpdateAvailable: unused('notifyUpdateAvailable'),
    preloadPayloads: unused('preloadPayloads'),
    showDocumentTitle: unused('showDocumentTitle'),
    arriveAtPage: unused('arriveAtPage'),
  },
  guards: { isSlowConnection: () => false },
});

export const renderPage: PageRenderer['renderPage'] = async (
  path,
  buildId,
  formState,
): Promise<RenderedPage> => {
  const page = bootPage({ fullPath: path, data: undefined }, routes);
  if (!page?.route) throw new Error(`${path} is not a page of this app, so it cannot be prerendered.`);
  const definition = await importPage(page.route);
  const data = definition.loader
    ? await definition.loader({ params: page.params, fullPath: path, signal: AbortSignal.timeout(30_000) })
    : undefined;
  const initial = { fullPath: path, data, title: definition.title?.(data) };
  const input = { ...appInputFrom(config), buildId, initial };
  // The failure template of a form page is the same page with the server's form state (placeholders) in it.
  provideFormState(formState ?? null);
  // An actor that is created but never started: its first snapshot is what the browser's shows on this page.
  const actor = createActor(buildTimeApp, { input });
  let html: string;
  try {
    html = renderToString(<Root actor={actor} />);
  } finally {
    provideFormState(undefined);
  }
  // The machine's own answer, as the browser shows it.
  const title = appView(actor.getSnapshot()).documentTitle;
  const image = definition.image?.(data);
  return {
    html,
    title,
    description: definition.description?.(data) ?? null,
    payload: { buildId, path, ...(definition.loader ? { data } : {}) },
    route: page.route,
    ...(image ? { image: previewImage(image) } : {}),
  };
};

/**
 * The size link previews show a page's picture at: the 1.91:1 that Open Graph's consumers (Facebook, LinkedIn,
 * Slack, X's large card) crop to, at the width they ask for. JPEG, which every one of them reads.
 */
const PREVIEW_IMAGE = { width: 1200, height: 630 } as const;

function previewImage(source: string): PreviewImage {
  const { width, height } = PREVIEW_IMAGE;
  return { url: imageUrl(source, { width, height, fit: 'cover', format: 'jpeg' }), width, height };
}
