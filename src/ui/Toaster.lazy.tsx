import { useToasterView } from '../platform/appActor';
import { lazyModule } from '../platform/lazyLoad';
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
  const { empty } = useToasterView();
  const code = useLazyModule(toasterCode, afterFirstPage || !empty);
  return code ? <code.Toaster {...props} /> : null;
}
