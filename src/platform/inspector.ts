import { createBrowserInspector } from '@statelyai/inspect';

/**
 * Development only (`?inspect` in the URL): streams the root actor to the Stately inspector. Imported
 * dynamically behind `import.meta.env.DEV`, so production builds carry none of it.
 */
export function createInspector() {
  return createBrowserInspector().inspect;
}
