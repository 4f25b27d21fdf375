import { css } from '../styled-system/css';
import { DefaultLayout } from './layouts/default';
import { ErrorView } from './pages/errorView';
import { loadedPage } from './pages/registry';
import { AppActor } from './ui/appActor';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { LoadingBar } from './ui/LoadingBar';
import { RouteEffects } from './ui/RouteEffects';
import { Toaster } from './ui/Toaster';

/** The committed page with the data it loaded; nothing when the navigation ended on an error. */
function CurrentPage() {
  const current = AppActor.useSelector((snapshot) => snapshot.context.current);
  const page = current?.route ? loadedPage(current.route) : undefined;
  if (!current || !page) return null;
  const Page = page.component;
  return <Page data={current.data} params={current.params} location={current.location} />;
}

function BootStatus() {
  return (
    <p role="status" className={css({ p: '8', color: 'fg.muted', textAlign: 'center' })}>
      Loading campaign-web…
    </p>
  );
}

/** Renders the app machine: the error page instead of everything, or the layout with the current page. */
export function App() {
  const app = AppActor.useActorRef();
  const booting = AppActor.useSelector((snapshot) => snapshot.hasTag('booting'));
  const error = AppActor.useSelector((snapshot) =>
    snapshot.hasTag('error') ? snapshot.context.error : null,
  );
  // Keyed by path and query, not by navigation count or #fragment: re-checking the page on screen (a session
  // change runs the guards again for it) or moving to an anchor must not remount it and lose what was typed.
  const pageKey = AppActor.useSelector((snapshot) => {
    const location = snapshot.context.current?.location;
    return location ? `${location.pathname}${location.search}` : '';
  });
  return (
    <>
      <LoadingBar />
      {error ? (
        <ErrorView error={error} />
      ) : booting ? (
        <BootStatus />
      ) : (
        <DefaultLayout>
          <ErrorBoundary
            key={pageKey}
            onError={(thrown) => app.send({ type: 'error.raised', error: thrown })}
          >
            <CurrentPage />
          </ErrorBoundary>
        </DefaultLayout>
      )}
      <RouteEffects />
      <Toaster />
    </>
  );
}
