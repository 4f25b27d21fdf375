import { ANNOUNCER_ATTRIBUTE } from '../platform/arrival';
import { visuallyHidden } from './styles';

/**
 * The polite live region that announces each page after the first. It renders empty and stays so for
 * React: the app machine's `arriveAtPage` action (src/platform/arrival.ts) writes the page title into it.
 */
export function RouteAnnouncer() {
  return (
    <div
      className={visuallyHidden}
      aria-live="polite"
      aria-atomic="true"
      data-testid="route-announcer"
      {...{ [ANNOUNCER_ATTRIBUTE]: '' }}
    />
  );
}
