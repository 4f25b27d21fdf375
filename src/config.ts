import { apiBaseFrom } from '../core/apiBase';
import type { AppTiming } from '../machines/app/app.machine';
import type { SwipeDirection, ToastPosition } from '../machines/toast/toaster.utils';

/**
 * Every tunable of campaign-web, with the values the product spec gives. Nothing else hard-codes them:
 * machines receive what they need through `input`, and `src/start.tsx` supplies this object.
 */
export interface AppConfig {
  /** Base URL of the product API; `VITE_API_BASE_URL` overrides the same-origin default. */
  readonly apiBaseUrl: string;
  /** A request that has not answered by then fails with a timeout error the UI can explain. */
  readonly apiTimeoutMs: number;
  /** Every delay of the app machine, passed into it as one object (`input.timing`); see AppTiming. */
  readonly timing: AppTiming;
  /** Guards may redirect; a chain longer than this is a bug in the guards and ends on an error page. */
  readonly maxRedirects: number;
  /** Paths echoed into error messages are cut to this many characters, so a hostile URL cannot flood the page. */
  readonly maxEchoedPathLength: number;
  /**
   * Pages left behind whose data the app keeps, so that Back or Forward to them shows them at once (then
   * checks them again); see machines/app/app.navigation.ts `remember`.
   */
  readonly maxRememberedPages: number;
  /** Scroll positions of history entries, restored on Back and Forward (src/platform/scroll.ts). */
  readonly scroll: ScrollConfig;
  /** The name shown in the header and in every document title. */
  readonly appName: string;
  /** Build manifest and update detection; see machines/app/app.build.ts. */
  readonly build: BuildConfig;
  /** Icon loading (src/platform/icons.ts, served by server/routes/icons.ts). */
  readonly icons: IconConfig;
  /** Image URLs (src/platform/images.ts, served by server/routes/images.ts). */
  readonly images: ImageConfig;
  /** Toast notifications (machines/toast/toaster.machine.ts, src/ui/Toaster.tsx). */
  readonly toast: ToastConfig;
  /** Colour mode (machines/colorMode/colorMode.machine.ts, src/platform/colorMode.ts, build/colorModeBoot.ts). */
  readonly colorMode: ColorModeConfig;
  /** Tooltips (src/ui/Tooltip.lazy.tsx, src/ui/Tooltip.tsx). */
  readonly tooltip: TooltipConfig;
  /** Page-data prefetch: payloads of links on screen, data on link intent (src/platform/prefetch.ts). */
  readonly prefetch: PrefetchConfig;
  /** When a prerendered page's app starts (build/firstPaint.ts). */
  readonly startup: StartupConfig;
  /** Error and web-vitals reports (src/platform/eventLog.ts, reporter.ts; api/reports.ts). */
  readonly reports: ReportsConfig;
}

export interface ReportsConfig {
  /** Off: nothing is recorded for sending and nothing is sent (`VITE_REPORTS=0` at build time). */
  readonly enabled: boolean;
  readonly endpoint: string;
  readonly buildId: string;
  /** The app actor's last events kept for a report: enough to replay a visit, small enough to send. */
  readonly maxEvents: number;
  /** A page that keeps failing sends this many reports, not one per failure. */
  readonly maxPerPage: number;
  /** The server refuses bodies over 16 KiB; a report drops its oldest events to stay under this. */
  readonly maxBytes: number;
  /** Share of page views whose web vitals are sent (never when the browser sends Global Privacy Control). */
  readonly vitalsSampleRate: number;
}

export interface ScrollConfig {
  /** Where the positions live: sessionStorage, so a reload of the tab finds them. */
  readonly storageKey: string;
  /** Positions of this many entries are kept, the most recently left; older ones go. */
  readonly maxEntries: number;
}

export interface StartupConfig {
  /**
   * A prerendered page asks for its app's scripts once its hero image is painted, so that the image has the
   * connection to itself on a slow link; an image still missing after this long (a stalled optimiser) waits no
   * longer. Slow 4G brings the hero about 0.6 s after the HTML, 3G about 2 s.
   */
  readonly heroWaitMs: number;
}

export interface PrefetchConfig {
  /** At most this many prefetched pages are kept; the oldest goes (and its request is cancelled). */
  readonly maxEntries: number;
  /** Prefetched data older than this is not used: pointing to clicking takes a few hundred ms. */
  readonly freshMs: number;
  /**
   * Also fetch the `_payload.json` of prerendered pages whose links are on screen, once, when the browser is
   * idle and the manifest has said which pages have one (as Nuxt prefetches the payloads of visible links),
   * so that even a click without a hover first commits at once. Never their API data: that is for intent.
   */
  readonly viewportData: boolean;
}

export interface ColorModeConfig {
  /** Spec section 4: the localStorage key; the boot script in index.html reads the same one. */
  readonly storageKey: string;
  /** The browser chrome (`<meta name="theme-color">`) matches the page background of each mode. */
  readonly themeColors: Readonly<Record<'light' | 'dark', string>>;
}

export interface TooltipConfig {
  /** Spec section 12: a pointer merely passing over a button shows nothing; resting on it does. */
  readonly openDelayMs: number;
  /**
   * Spec section 12: once a tooltip has been open, moving to the next button shows its tooltip at once,
   * until this long after the last one closed: someone scanning a toolbar should not wait at every icon.
   */
  readonly skipDelayMs: number;
}

export interface BuildConfig {
  /** The running build's id, stamped in by the build (`dev` in the dev server). */
  readonly id: string;
  /** Where the build writes `latest.json` and `meta/{id}.json`, under the app's base path. */
  readonly manifestBase: string;
  /** A page is reloaded after a chunk failure at most once per this window and path. */
  readonly reloadGuardMs: number;
  /**
   * And at most this many times per `reloadCapWindowMs` in the tab's session, whatever the paths: a reload
   * cycle slower than `reloadGuardMs` (a slow link, stale HTML from a cache) would otherwise loop forever.
   */
  readonly maxReloads: number;
  readonly reloadCapWindowMs: number;
  /** Where the reload guard remembers its reloads (sessionStorage). */
  readonly reloadGuardKey: string;
}

export interface IconConfig {
  /** Same-origin icon endpoint with the spec's path shape `{endpoint}/{prefix}.json?icons=a,b`. */
  readonly endpoint: string;
  /** Asked instead when the endpoint is slow, unreachable or answers no JSON: nuxt/icon's own fallback. */
  readonly fallbackEndpoint: string;
  /** Spec section 9: an icon request not answered by then is given up and the fallback asked instead. */
  readonly fetchTimeoutMs: number;
  /** Longer icon lists are split over several requests, as Iconify does (maxURL 500), so no URL gets cut. */
  readonly maxUrlLength: number;
}

export type ImageFormat = 'webp' | 'avif' | 'jpeg' | 'png';
export type ImageFit = 'cover' | 'contain' | 'fill' | 'inside' | 'outside';

export interface ImageConfig {
  /** Same-origin optimisation path: `{endpoint}/{modifiers}/{src}`. */
  readonly endpoint: string;
  /** Spec section 9: a 1x and a 2x candidate cover ordinary and high-density screens. */
  readonly densities: readonly number[];
  /** Spec section 9: webp is smaller than jpeg at equal quality and every supported browser decodes it. */
  readonly defaultFormat: ImageFormat;
  /**
   * Spec section 9 (Nuxt UI / Tailwind screens), in CSS px. Also the widths (in image pixels) an image is offered
   * at below its own largest candidate: with the page's `sizes`, a phone's 378 px column at density 1.75 (662
   * image pixels) takes the 768 px candidate instead of a 2x one of 960 (src/platform/images.ts `imageWidths`).
   */
  readonly breakpoints: Readonly<Record<'xs' | 'sm' | 'md' | 'lg' | 'xl' | '2xl', number>>;
  /**
   * Quality of `<Image>` unless it says otherwise (the optimiser's own default is sharp's 80). The campaign
   * images at 768 px, a phone's card, are 15 to 22 % smaller at 70 (7.2 and 10.5 kB against 9.3 and 12.2) and
   * look the same side by side at twice their size.
   */
  readonly defaultQuality: number;
  /**
   * Largest width or height the server renders (server/routes/images.ts clamps to the same number): past it an
   * image costs far more to resize than any screen gains.
   */
  readonly maxDimension: number;
  /** The formats and fits the server accepts; anything else is a 400. */
  readonly formats: readonly ImageFormat[];
  readonly fits: readonly ImageFit[];
}

export interface ToastConfig {
  /** Spec section 9: long enough to read a title and a line of text, short enough that toasts do not pile up. */
  readonly durationMs: number;
  /** Spec section 9: more than five stacked toasts would cover the page; the rest wait, without a timer. */
  readonly maxVisible: number;
  /** Spec section 9: keeps stacked toasts visibly apart without eating the corner of a phone screen. */
  readonly gapPx: number;
  /** Spec section 4: a closed toast stays this long for its exit animation, then leaves the DOM. */
  readonly removeDelayMs: number;
  /** Spec section 9: released farther than this a swipe closes the toast; nearer, it snaps back. */
  readonly swipeThresholdPx: number;
  /** A finger wobbles, so a touch drag counts as a swipe only after this many px in the swipe direction. */
  readonly swipeStartTouchPx: number;
  /** Mouse and pen are precise: a couple of px tells a drag from a click. */
  readonly swipeStartPx: number;
  /** Spec section 9: jumps to the notifications; function keys rarely clash with page or browser shortcuts. */
  readonly hotkey: readonly string[];
  /** Spec section 5: every announcement starts with it, so a screen reader says what is being read. */
  readonly label: string;
  /** Spec section 9: the corner people look at last, away from the header's navigation. */
  readonly position: ToastPosition;
  /** Spec section 9: towards the nearest screen edge of the default position. */
  readonly swipeDirection: SwipeDirection;
  /** Spec section 5: what an action button says when the caller gave it no label. */
  readonly actionLabel: string;
  /** The close button's accessible name (it shows only an icon). */
  readonly closeLabel: string;
}

function readApiBaseUrl(): string {
  return apiBaseFrom(import.meta.env?.VITE_API_BASE_URL);
}

const HOUR = 60 * 60 * 1000;
const BUILD_ID = typeof __BUILD_ID__ === 'string' ? __BUILD_ID__ : 'dev';

export const config: AppConfig = {
  build: {
    id: BUILD_ID,
    manifestBase: `${import.meta.env?.BASE_URL ?? '/'}_app/builds`,
    reloadGuardMs: 10_000,
    maxReloads: 3,
    reloadCapWindowMs: 5 * 60 * 1000,
    reloadGuardKey: 'campaign-web:reload',
  },
  apiBaseUrl: readApiBaseUrl(),
  apiTimeoutMs: 10_000,
  timing: {
    // Below it nothing flashes: most navigations settle within a frame budget plus a fast API round trip.
    slowNavigationMs: 250,
    // After the first paint, before most second clicks.
    manifestPreloadMs: 1000,
    // Deploys are rare, and each check is a request.
    updateCheckIntervalMs: HOUR,
    maxUpdateCheckIntervalMs: 6 * HOUR,
    updateRecheckThrottleMs: 5 * 60 * 1000,
  },
  maxRedirects: 10,
  maxEchoedPathLength: 200,
  // A few pages: enough to go back and forth between a list and what it links to, little memory (the data of a
  // page is a few kB of JSON).
  maxRememberedPages: 5,
  // About an hour of browsing; each entry is a few bytes of JSON, far from sessionStorage's limits.
  scroll: { storageKey: 'campaign-web:scroll', maxEntries: 100 },
  appName: 'campaign-web',
  icons: {
    endpoint: '/api/_nuxt_icon',
    fallbackEndpoint: 'https://api.iconify.design',
    fetchTimeoutMs: 1500,
    maxUrlLength: 500,
  },
  images: {
    endpoint: '/_ipx',
    densities: [1, 2],
    defaultFormat: 'webp',
    breakpoints: { xs: 320, sm: 640, md: 768, lg: 1024, xl: 1280, '2xl': 1536 },
    defaultQuality: 70,
    maxDimension: 2048,
    formats: ['webp', 'avif', 'jpeg', 'png'],
    fits: ['cover', 'contain', 'fill', 'inside', 'outside'],
  },
  toast: {
    durationMs: 5000,
    maxVisible: 5,
    gapPx: 16,
    removeDelayMs: 200,
    swipeThresholdPx: 50,
    swipeStartTouchPx: 10,
    swipeStartPx: 2,
    hotkey: ['F8'],
    label: 'Notification',
    position: 'bottom-right',
    swipeDirection: 'right',
    actionLabel: 'Action',
    closeLabel: 'Close',
  },
  colorMode: {
    storageKey: 'color-mode',
    // white and slate.900: the `bg` token of each mode (panda.config.ts).
    themeColors: { light: '#ffffff', dark: '#0f172a' },
  },
  tooltip: { openDelayMs: 700, skipDelayMs: 300 },
  prefetch: { maxEntries: 8, freshMs: 10_000, viewportData: true },
  startup: { heroWaitMs: 2500 },
  reports: {
    enabled: import.meta.env?.VITE_REPORTS !== '0',
    endpoint: `${readApiBaseUrl()}/reports`,
    buildId: BUILD_ID,
    maxEvents: 50,
    maxPerPage: 10,
    maxBytes: 15 * 1024,
    vitalsSampleRate: 0.1,
  },
};
