import { useEffect, useState } from 'react';
import { useAppView } from '../platform/appActor';

/**
 * True from the commit after the first page (or the error page instead of it) is on screen. Widgets that the first paint can do without
 * (their code in a lazy chunk) start loading then, so they never compete with the page's own chunk and data.
 */
export function useAfterFirstPage(): boolean {
  const hasPage = useAppView().pageShown;
  const [after, setAfter] = useState(false);
  useEffect(() => {
    if (hasPage) setAfter(true);
  }, [hasPage]);
  return after;
}
