import { memo } from 'react';
import type { CommittedNavigation } from '../machines/app/app.setup';
import { css } from '../styled-system/css';
import { DefaultLayout } from './layouts/default';
import { ErrorView } from './pages/errorView';
import { loadedPage } from './pages/registry';
import { useAppCommands, useAppView } from './platform/appActor';
import { ErrorBoundary } from './ui/ErrorBoundary';
import { LoadingBar } from './ui/LoadingBar';
import { RouteAnnouncer } from './ui/RouteAnnouncer';
import { LazyToaster } from './ui/Toaster.lazy';

/**
 * The committed page with the data it loaded; nothing when the navigation ended on an error. Memoised: the
 * layout around it re-renders when a navigation starts (its busy flag), and the page has nothing new then.
 */
const CurrentPage = memo(function CurrentPage({ current }: { readonly current: CommittedNavigation | null }) {
  const page = current?.route ? loadedPage(current.route) : undefined;
  if (!current || !page) return null;
  const Page = page.component;
  return <Page data={current.data} params={current.params} location={current.location} />;
});

function BootStatus() {
  return (
    <p role="status" className={css({ p: '8', color: 'fg.muted', textAlign: 'center' })}>
      Loading campaign-web…
    </p>
  );
}

/** Renders the app machine: the error page instead of everything, or the layout with the current page. */
export function App() {
  const { reportRenderError } = useAppCommands();
  const view = useAppView();
  return (
    <>
      <LoadingBar />
      {view.error ? (
        <ErrorView error={view.error} />
      ) : view.booting ? (
        <BootStatus />
      ) : (
        <DefaultLayout>
          <ErrorBoundary key={view.pageKey} onError={reportRenderError}>
            <CurrentPage current={view.current} />
          </ErrorBoundary>
        </DefaultLayout>
      )}
      <RouteAnnouncer />
      <LazyToaster />
    </>
  );
}
