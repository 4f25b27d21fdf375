import { css } from '../../styled-system/css';
import { useAppView } from '../platform/appActor';

const bar = css({
  position: 'fixed',
  insetInline: '0',
  top: '0',
  h: '3px',
  zIndex: 50,
  bg: 'primary',
  transformOrigin: 'left',
  animation: 'loading-bar 2s ease-out forwards',
});

/** Shown only when a navigation is slow (the machine's `slow` tag), so fast ones never flash. */
export function LoadingBar() {
  const { slow } = useAppView();
  if (!slow) return null;
  return <div className={bar} role="progressbar" aria-label="Loading page" data-testid="loading-bar" />;
}
