import { useSelector } from '@xstate/react';
import { lazyModule } from '../platform/lazyLoad';
import { AppActor } from './appActor';
import type { ToasterProps } from './Toaster';
import { useAfterFirstPage } from './useAfterFirstPage';
import { useLazyModule } from './useLazyModule';

const toasterCode = lazyModule(() => import('./Toaster'));

/**
 * The toaster's view (./Toaster.tsx) is not needed to paint the first page: it is mounted right after the
 * first page is on screen, well before anyone can cause a toast, so its live regions exist before the first
 * announcement. A toast added earlier (the toaster machine keeps it) mounts it at once.
 */
export function LazyToaster(props: ToasterProps) {
  const afterFirstPage = useAfterFirstPage();
  const toaster = AppActor.useSelector((snapshot) => snapshot.children.toaster);
  const hasToasts = useSelector(toaster, (snapshot) => (snapshot?.context.entries.length ?? 0) > 0);
  const code = useLazyModule(toasterCode, afterFirstPage || hasToasts);
  return code ? <code.Toaster {...props} /> : null;
}
