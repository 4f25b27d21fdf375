import { useEffect, useState } from 'react';
import { findRoute, type RouteName } from '../../machines/routes';
import { config } from '../config';
import { errorDocumentTitle } from '../pages/errorView';
import { loadedPage } from '../pages/registry';
import { AppActor } from './appActor';
import { visuallyHidden } from './styles';

function pageTitleFor(route: RouteName, data: unknown): string {
  return loadedPage(route)?.title?.(data) ?? findRoute(route).title;
}

/**
 * After each settled navigation: the document title, focus on the page's main heading, and a polite
 * announcement of the new page. The first load keeps the browser's own focus, as a document load does.
 */
export function RouteEffects() {
  const current = AppActor.useSelector((snapshot) => snapshot.context.current);
  const error = AppActor.useSelector((snapshot) =>
    snapshot.hasTag('error') ? snapshot.context.error : null,
  );
  const [announcement, setAnnouncement] = useState('');

  const pageTitle = error
    ? errorDocumentTitle(error, config.appName)
    : current?.route
      ? `${pageTitleFor(current.route, current.data)} | ${config.appName}`
      : config.appName;
  const key = current?.key ?? 0;
  const showsPage = error !== null || current?.route != null;

  useEffect(() => {
    document.title = pageTitle;
  }, [pageTitle]);

  useEffect(() => {
    if (key === 0 || !showsPage || (key === 1 && error === null)) return;
    window.scrollTo(0, 0);
    const heading = document.querySelector<HTMLElement>('main h1');
    heading?.focus({ preventScroll: true });
    setAnnouncement(document.title);
  }, [key, error, showsPage]);

  return (
    <div className={visuallyHidden} aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {announcement}
    </div>
  );
}
