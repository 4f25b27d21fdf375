/**
 * What each state of the app machine promises: which page is shown, which request is in flight (the actor and its
 * input), what the address bar is told, which effects a state requests on entry; and what the transitions that
 * promise an effect do (a URL pushed, a reload, the session told). Checked at every step of every generated path
 * by ../../support/pathPromises.ts.
 */
import { getNextSnapshot } from 'xstate';
import { findRoute, toFullPath } from '../../../core/routes';
import type { AppContext } from '../../../machines/app/app.machine';
import type { AddressBarUpdate, PendingNavigation } from '../../../machines/app/app.setup';
import {
  invoked,
  type Moment,
  promise,
  requested,
  running,
  type StatePromises,
  sent,
  type TransitionPromises,
} from '../../support/pathPromises';

const context = (moment: Moment) => moment.context as AppContext;
const before = (moment: Moment) => moment.previous?.context as AppContext | undefined;
const pendingOf = (moment: Moment) => context(moment).pending as PendingNavigation;
const targetOf = (pending: PendingNavigation) => toFullPath(pending.to);
const timers = (moment: Moment, delay: string) =>
  moment.effects.flatMap((effect) =>
    'timer' in effect && effect.timer.includes(`.${delay}.`) ? [effect.ms] : [],
  );
const manifestSettled = (moment: Moment) =>
  moment.snapshot.matches({ build: { manifest: 'ready' } }) ||
  moment.snapshot.matches({ build: { manifest: 'failed' } });
const addressBar = (moment: Moment) => requested(moment, 'updateAddressBar') as (AddressBarUpdate | null)[];
/** What a return to the visible, online tab would do from here: start a check. */
const returnChecks = (moment: Moment) =>
  getNextSnapshot(moment.snapshot.machine, moment.snapshot, {
    type: 'page.changed',
    visible: true,
    online: true,
  }).matches({
    build: { updates: 'checking' },
  });
/**
 * For a `session.changed` that found the navigation settled with a page on screen: whether signed in became
 * signed out or the other way round (`true`), or not (`false`); `null` for any other step.
 */
const sessionFlip = (moment: Moment): boolean | null => {
  const previous = before(moment);
  if (moment.event.type !== 'session.changed' || !previous || previous.current === null) return null;
  if (!moment.previous?.matches({ navigation: 'idle' })) return null;
  return moment.event.signedIn !== (previous.session === 'signedIn');
};
const onEntry = (name: string, holds: (moment: Moment) => boolean) =>
  promise(`${name}, on entry`, (moment) => !moment.entered || holds(moment));

// --- Navigation -------------------------------------------------------------------------------------------

/** The only address bar updates of a step that settles a navigation: the rule for its intent. */
const addressBarShowsTarget = promise(
  'the address bar shows the target: pushed for a link, replaced for the path shown, left alone for Back or Forward that landed there',
  (moment) => {
    const pending = before(moment)?.pending;
    if (!pending) return false;
    const to = targetOf(pending);
    const updates = addressBar(moment).filter((update) => update !== null);
    if (pending.intent === 'pop') {
      return to === pending.original
        ? updates.length === 0
        : updates.length === 1 && updates[0]?.type === 'replace' && updates[0].to === to;
    }
    const expected =
      pending.intent === 'push' && before(moment)?.current?.fullPath !== to ? 'push' : 'replace';
    return updates.length === 1 && updates[0]?.type === expected && updates[0].to === to;
  },
);

const showsLoadedPage = promise('shows the page loaded for the target, with its data', (moment) => {
  const pending = before(moment)?.pending;
  const output = (moment.event as { output?: { data?: unknown } }).output;
  const current = context(moment).current;
  return (
    pending !== undefined &&
    pending !== null &&
    current?.fullPath === targetOf(pending) &&
    current.route === pending.match?.route.name &&
    current.data === output?.data
  );
});

const raisesErrorPage = promise(
  'puts the error page up: the error is held and screened',
  (moment) => context(moment).error !== null && !moment.snapshot.matches({ errors: 'none' }),
);

const endsSession = promise('tells the session it has ended', (moment) =>
  sent(moment, 'session').some((event) => event.type === 'session.expired'),
);

const loadsDocument = promise('loads the target as a document', (moment) => {
  const pending = before(moment)?.pending;
  return (
    pending != null &&
    requested(moment, 'loadDocument').some((params) => (params as { url: string }).url === targetOf(pending))
  );
});

const rejects = promise('reports the rejected target and navigates nowhere', (moment) => {
  const to = (moment.event as { to?: string }).to;
  return (
    requested(moment, 'reportRejectedTarget').some((params) => (params as { to: string }).to === to) &&
    context(moment).pending === before(moment)?.pending
  );
});

const movesToFragment = (kind: 'new' | 'return') =>
  promise(
    `moves to the #fragment (${kind === 'new' ? 'a new' : 'a return to an'} entry), loading nothing`,
    (moment) =>
      requested(moment, 'arriveAtFragment').some((params) => (params as { kind: string }).kind === kind) &&
      !invoked(moment, 'loadPage'),
  );

const asksReloadGuard = (id: string) =>
  promise(
    'asks the reload guard about the target',
    (moment) => running(moment.snapshot, id)?.path === targetOf(pendingOf(moment)),
  );

const failureKept = promise(
  'keeps the chunk failure (500) it recovers from',
  (moment) => pendingOf(moment).failure?.statusCode === 500,
);

const requestsTarget = (id: string, what: string) =>
  promise(`requests ${what} for the pending target (route, params, full path)`, (moment) => {
    const pending = pendingOf(moment);
    const input = running(moment.snapshot, id);
    return (
      input !== undefined &&
      input.fullPath === targetOf(pending) &&
      input.route === pending.match?.route.name &&
      JSON.stringify(input.params) === JSON.stringify(pending.match?.params)
    );
  });

const keepsPageOnScreen = promise(
  'keeps the previous page on screen, the address bar untouched',
  (moment) =>
    (!moment.entered || context(moment).current === before(moment)?.current) &&
    addressBar(moment).length === 0,
);

const nothingPending = promise('has no navigation pending', (moment) => context(moment).pending === null);

export const appPromises: StatePromises = {
  app: [
    promise(
      'is tagged `booting` exactly while no page is on screen yet, `busy` exactly while a navigation is pending',
      ({ snapshot }) => {
        const navigation = (snapshot.value as Record<string, unknown>).navigation;
        return (
          snapshot.hasTag('booting') === (navigation === 'booting') &&
          snapshot.hasTag('busy') === (navigation !== 'booting' && navigation !== 'idle')
        );
      },
    ),
    promise(
      'is tagged `slow`, `error` and `updatePending` exactly in those states',
      ({ snapshot }) =>
        snapshot.hasTag('slow') === snapshot.matches({ navigation: { loading: 'slow' } }) &&
        snapshot.hasTag('error') === snapshot.matches({ errors: 'shown' }) &&
        snapshot.hasTag('updatePending') === snapshot.matches({ build: { updates: 'updatePending' } }),
    ),
    promise('keeps a few pages for Back: pages only, one copy each, never the page on screen', (moment) => {
      const { remembered, current, limits } = context(moment);
      const keys = remembered.map((page) => `${page.location.pathname}${page.location.search}`);
      const onScreen = current?.route ? `${current.location.pathname}${current.location.search}` : null;
      return (
        remembered.length <= limits.maxRememberedPages &&
        remembered.every((page) => page.route !== null) &&
        new Set(keys).size === keys.length &&
        (onScreen === null || !keys.includes(onScreen))
      );
    }),
    promise('runs its session, toaster, colour mode, history listener and page watcher', ({ snapshot }) =>
      ['session', 'toaster', 'colorMode', 'history', 'page'].every(
        (id) => running(snapshot, id) !== undefined,
      ),
    ),
  ],
  navigation: [
    promise(
      'has a navigation pending exactly while busy',
      (moment) => (context(moment).pending !== null) === moment.snapshot.hasTag('busy'),
    ),
    promise('runs the guards again for the page on screen when the session flips', (moment) => {
      const flip = sessionFlip(moment);
      return (
        flip !== true ||
        context(moment).pending !== null ||
        context(moment).current !== before(moment)?.current
      );
    }),
    promise('changes nothing on screen when the session did not flip', (moment) => {
      const flip = sessionFlip(moment);
      return (
        flip !== false ||
        (context(moment).pending === null && context(moment).current === before(moment)?.current)
      );
    }),
  ],
  'navigation.booting': [
    promise(
      'has no page on screen yet (tag `booting`)',
      (moment) => moment.snapshot.hasTag('booting') && context(moment).current === null,
    ),
  ],
  'navigation.idle': [
    nothingPending,
    promise(
      'loads nothing',
      ({ snapshot }) =>
        running(snapshot, 'loadPage') === undefined && running(snapshot, 'retryPage') === undefined,
    ),
    onEntry('tells the colour mode what the page on screen forces', (moment) => {
      const { current, routes } = context(moment);
      const mode = current?.route ? (findRoute(current.route, routes).colorMode ?? null) : null;
      return sent(moment, 'colorMode').some((event) => event.type === 'route.forced' && event.mode === mode);
    }),
  ],
  'navigation.resolving': [
    promise('matches the pending navigation afresh: no verdict or failure yet', (moment) => {
      const pending = context(moment).pending;
      return pending !== null && pending.verdict === null && pending.failure === null;
    }),
  ],
  'navigation.awaiting': [
    promise(
      'waits for the session to be known, or for the rules of the build manifest',
      (moment) =>
        !moment.settled ||
        context(moment).session === 'unknown' ||
        (context(moment).current !== null && !manifestSettled(moment)),
    ),
    promise('loads nothing meanwhile', ({ snapshot }) => running(snapshot, 'loadPage') === undefined),
  ],
  'navigation.guarding': [
    promise('has the guards’ verdict, or the failure of a guard', (moment) => {
      const pending = context(moment).pending;
      return pending !== null && (pending.verdict !== null || pending.failure !== null);
    }),
  ],
  'navigation.validating': [
    promise('has a navigation the guards allowed', (moment) => {
      const pending = context(moment).pending;
      return pending !== null && pending.verdict?.type === 'allow' && pending.failure === null;
    }),
  ],
  'navigation.reloadingForUpdate': [
    asksReloadGuard('claimUpdateReload'),
    promise('does so because a newer build is out', ({ snapshot }) =>
      snapshot.matches({ build: { updates: 'updatePending' } }),
    ),
  ],
  'navigation.loading': [requestsTarget('loadPage', 'the page’s data'), keepsPageOnScreen],
  'navigation.loading.quick': [
    promise('says nothing of slowness yet', ({ snapshot }) => !snapshot.hasTag('slow')),
    onEntry('sets the slow-navigation timer', (moment) =>
      timers(moment, 'slowNavigation').includes(context(moment).timing.slowNavigationMs),
    ),
  ],
  'navigation.loading.slow': [
    promise('says it is taking long (tag `slow`)', ({ snapshot }) => snapshot.hasTag('slow')),
  ],
  'navigation.recovering': [
    promise(
      'asks which build is current',
      ({ snapshot }) => running(snapshot, 'checkBuildAfterChunkError') !== undefined,
    ),
    failureKept,
  ],
  'navigation.retrying': [requestsTarget('retryPage', 'the page once more'), failureKept],
  'navigation.claimingReload': [asksReloadGuard('claimChunkReload'), failureKept],
  'navigation.leaving': [
    onEntry('loads the target as a document', (moment) => {
      const urls = requested(moment, 'loadDocument').map((params) => (params as { url: string }).url);
      return urls.length === 1 && urls[0] === targetOf(pendingOf(moment));
    }),
  ],

  // --- Build ------------------------------------------------------------------------------------------------
  build: [
    promise(
      'applies route rules and knows the prerendered pages exactly once the manifest is ready',
      (moment) => {
        const ready = moment.snapshot.matches({ build: { manifest: 'ready' } });
        const { routeRules, prerendered } = context(moment);
        return ready
          ? routeRules !== null && Array.isArray(prerendered)
          : routeRules === null && prerendered === null;
      },
    ),
  ],
  'build.manifest': [
    promise(
      'is tagged `manifestSettled` exactly once the manifest is ready or failed',
      (moment) => moment.snapshot.hasTag('manifestSettled') === manifestSettled(moment),
    ),
  ],
  'build.manifest.idle': [
    promise(
      'has not asked for the manifest',
      ({ snapshot }) => running(snapshot, 'fetchManifest') === undefined,
    ),
    onEntry('sets the manifest preload timer', (moment) =>
      timers(moment, 'manifestPreload').includes(context(moment).timing.manifestPreloadMs),
    ),
  ],
  'build.manifest.loading': [
    promise(
      'fetches the manifest of this build',
      (moment) => running(moment.snapshot, 'fetchManifest')?.buildId === context(moment).build.id,
    ),
  ],
  'build.manifest.ready': [
    onEntry('warms the payloads of the prerendered pages', (moment) =>
      requested(moment, 'preloadPayloads').some(
        (params) => (params as { buildId: string }).buildId === context(moment).build.id,
      ),
    ),
  ],
  'build.manifest.failed': [
    onEntry(
      'logs why the manifest is of no use',
      (moment) =>
        requested(moment, 'logManifestFetchError').length +
          requested(moment, 'logManifestMatcherError').length ===
        1,
    ),
  ],
  'build.updates': [
    promise('counts failed checks from zero', (moment) => context(moment).build.failedChecks >= 0),
  ],
  'build.updates.waiting': [
    promise('checks nothing now', ({ snapshot }) => running(snapshot, 'checkForUpdate') === undefined),
    onEntry(
      'sets the next check at the interval, doubled for each failed check up to the maximum',
      (moment) => {
        const { timing, build } = context(moment);
        const ms = Math.min(
          timing.updateCheckIntervalMs * 2 ** build.failedChecks,
          timing.maxUpdateCheckIntervalMs,
        );
        return timers(moment, 'nextUpdateCheck').includes(ms);
      },
    ),
  ],
  'build.updates.waiting.throttled': [
    onEntry('sets the recheck throttle', (moment) =>
      timers(moment, 'updateRecheckThrottle').includes(context(moment).timing.updateRecheckThrottleMs),
    ),
    promise('does not check on a return to the tab yet', (moment) => !returnChecks(moment)),
  ],
  'build.updates.waiting.ready': [promise('checks at once on a return to the tab', returnChecks)],
  'build.updates.dormant': [
    onEntry('holds a check that fell due while the tab was hidden or offline', (moment) => {
      const { page } = context(moment);
      return !(page.visible && page.online);
    }),
  ],
  'build.updates.checking': [
    promise('asks for the latest build', ({ snapshot }) => running(snapshot, 'checkForUpdate') !== undefined),
    onEntry(
      'only while the tab is visible and online',
      (moment) => context(moment).page.visible && context(moment).page.online,
    ),
  ],
  'build.updates.updatePending': [
    promise('knows of a build other than its own', (moment) => {
      const { build } = context(moment);
      return build.latestId !== null && build.latestId !== build.id;
    }),
    onEntry(
      'says an update is out, once',
      (moment) => requested(moment, 'notifyUpdateAvailable').length === 1,
    ),
  ],

  // --- Errors -----------------------------------------------------------------------------------------------
  errors: [
    promise('holds an error exactly while one is screened, shown or suppressed', (moment) =>
      moment.snapshot.matches({ errors: 'none' })
        ? context(moment).error === null
        : typeof context(moment).error?.message === 'string',
    ),
  ],
  'errors.none': [promise('shows no error page', ({ snapshot }) => !snapshot.hasTag('error'))],
  'errors.screening': [
    promise(
      'asks whether the visitor is a crawler, unless that is known',
      (moment) => !moment.settled || running(moment.snapshot, 'detectCrawler') !== undefined,
    ),
    onEntry(
      'shows the title of what is committed meanwhile',
      (moment) => requested(moment, 'showDocumentTitle').length >= 1,
    ),
  ],
  'errors.shown': [
    promise(
      'shows the error page (tag `error`) to a person',
      (moment) => moment.snapshot.hasTag('error') && context(moment).visitor !== 'crawler',
    ),
    onEntry(
      'titles the error page and arrives at it as at a new page',
      (moment) =>
        requested(moment, 'showDocumentTitle').length >= 1 &&
        requested(moment, 'arriveAtPage').some((params) => (params as { kind: string }).kind !== 'first'),
    ),
  ],
  'errors.suppressed': [
    promise(
      'shows a crawler no error page',
      (moment) => !moment.snapshot.hasTag('error') && context(moment).visitor === 'crawler',
    ),
    onEntry('logs the error instead', (moment) => requested(moment, 'logSuppressedError').length === 1),
  ],

  // --- Freshness --------------------------------------------------------------------------------------------
  freshness: [
    promise(
      'never checks a page while a navigation replaces it',
      (moment) =>
        !moment.settled ||
        running(moment.snapshot, 'revalidatePage') === undefined ||
        context(moment).pending === null,
    ),
  ],
  'freshness.idle': [
    promise(
      'checks nothing, and leaves no build-time data unchecked while nothing navigates',
      (moment) =>
        !moment.settled ||
        (running(moment.snapshot, 'revalidatePage') === undefined &&
          (context(moment).pending !== null || context(moment).current?.stale !== true)),
    ),
  ],
  'freshness.revalidating': [
    promise(
      'checks the page on screen again, for its route and path (a #fragment moved meanwhile changes nothing)',
      (moment) => {
        const { current } = context(moment);
        const input = running(moment.snapshot, 'revalidatePage');
        const withoutFragment = (path: unknown) => String(path).split('#')[0];
        return (
          !moment.settled ||
          (current?.stale === true &&
            input !== undefined &&
            withoutFragment(input.fullPath) === withoutFragment(current.fullPath) &&
            input.route === current.route)
        );
      },
    ),
  ],
};

const settles = [addressBarShowsTarget, showsLoadedPage];
const failsOnTarget = [addressBarShowsTarget, raisesErrorPage];

export const appTransitions: TransitionPromises = {
  'navigation on nav.go [isFragmentLink]': [
    movesToFragment('new'),
    promise('pushes the fragment’s address, unless the address bar shows it already', (moment) => {
      const [update, ...more] = addressBar(moment);
      const now = context(moment).current?.fullPath;
      if (more.length > 0 || update === undefined) return false;
      return update === null
        ? before(moment)?.current?.fullPath === now
        : update.type === 'push' && update.to === now;
    }),
  ],
  'navigation on nav.popped [isFragmentStep]': [
    movesToFragment('return'),
    promise('leaves the address bar to the browser', (moment) => addressBar(moment).length === 0),
  ],
  'navigation on nav.go': [rejects],
  'navigation on nav.popped': [rejects],
  'navigation on page.restored': [
    promise('asks the session to check again', (moment) =>
      sent(moment, 'session').some((event) => event.type === 'session.recheck'),
    ),
  ],
  'navigation on page.settled [isPageOnScreen]': [
    promise(
      'titles the page and arrives at it',
      (moment) =>
        requested(moment, 'showDocumentTitle').length >= 1 && requested(moment, 'arriveAtPage').length === 1,
    ),
  ],
  'navigation.guarding always [hasGuardFailure]': failsOnTarget,
  'navigation.guarding always [isRedirect]': failsOnTarget,
  'navigation.guarding always [isAborted]': [
    promise(
      'puts the address bar back to the page on screen after a stopped Back or Forward, else leaves it',
      (moment) => {
        const pending = before(moment)?.pending ?? context(moment).pending;
        const current = before(moment)?.current;
        const updates = addressBar(moment).filter((update) => update !== null);
        return pending?.intent === 'pop' && current
          ? updates.length === 1 && updates[0]?.type === 'replace' && updates[0].to === current.fullPath
          : updates.length === 0;
      },
    ),
  ],
  'navigation.validating always [isInvalid]': failsOnTarget,
  'navigation.validating always [isRemembered]': [
    addressBarShowsTarget,
    promise('shows the kept page at once, loading nothing', (moment) => {
      const pending = before(moment)?.pending;
      return (
        pending != null &&
        context(moment).current?.fullPath === targetOf(pending) &&
        !invoked(moment, 'loadPage')
      );
    }),
  ],
  'navigation.loading on xstate.done.actor.loadPage': settles,
  'navigation.retrying on xstate.done.actor.retryPage': settles,
  'navigation.loading on xstate.error.actor.loadPage': failsOnTarget,
  'navigation.retrying on xstate.error.actor.retryPage': failsOnTarget,
  'navigation.claimingReload on xstate.done.actor.claimChunkReload': failsOnTarget,
  'navigation.claimingReload on xstate.error.actor.claimChunkReload': failsOnTarget,
  'navigation.loading on xstate.error.actor.loadPage [isSessionExpired]': [
    endsSession,
    promise(
      'stops counting on the session, forgetting the kept pages',
      (moment) => context(moment).session === 'signedOut' && context(moment).remembered.length === 0,
    ),
  ],
  'navigation.claimingReload on xstate.done.actor.claimChunkReload [isReloadGranted]': [loadsDocument],
  'navigation.reloadingForUpdate on xstate.done.actor.claimUpdateReload [isReloadGranted]': [loadsDocument],
  'build.manifest.loading on xstate.done.actor.fetchManifest': [
    promise(
      'logs a manifest it cannot read',
      (moment) => requested(moment, 'logManifestMatcherError').length === 1,
    ),
  ],
  'build.manifest.loading on xstate.error.actor.fetchManifest': [
    promise(
      'logs that the manifest could not be fetched',
      (moment) => requested(moment, 'logManifestFetchError').length === 1,
    ),
  ],
  'errors.screening on xstate.done.actor.detectCrawler [isCrawler]': [
    promise('remembers the visitor is a crawler', (moment) => context(moment).visitor === 'crawler'),
  ],
  'freshness.revalidating on xstate.done.actor.revalidatePage': [
    promise('replaces the data in place (same key) and retitles the tab', (moment) => {
      const output = (moment.event as { output?: { data?: unknown } }).output;
      const { current } = context(moment);
      return (
        current?.data === output?.data &&
        current?.key === before(moment)?.current?.key &&
        current?.stale === false &&
        requested(moment, 'showDocumentTitle').length === 1
      );
    }),
  ],
  'freshness.revalidating on xstate.error.actor.revalidatePage [isSessionExpired]': [endsSession],
  'freshness.revalidating on xstate.error.actor.revalidatePage [isGone]': [
    promise('replaces the page with the error page, as a new page', (moment) => {
      const { current } = context(moment);
      return (
        current?.route === null &&
        current.key === (before(moment)?.current?.key ?? 0) + 1 &&
        context(moment).error !== null
      );
    }),
  ],
  'freshness.revalidating on xstate.error.actor.revalidatePage': [
    promise(
      'keeps what is shown, no longer stale',
      (moment) =>
        context(moment).current?.data === before(moment)?.current?.data &&
        context(moment).current?.stale === false,
    ),
  ],
};
