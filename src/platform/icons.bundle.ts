import type { IconifyJSON } from '@iconify/types';

/**
 * The icons the app's own source names, inlined so that they need no request.
 *
 * This file is a stand-in: in `vite dev` and `vite build`, build/iconBundle.ts replaces its content with the
 * `'prefix:name'` literals it finds under src/ (only those icons, never a whole collection). Under Vitest it
 * stays empty, so unit tests see every icon go through the loader.
 */
export const bundledIcons: readonly IconifyJSON[] = [];
