// @vitest-environment node
/**
 * Machines name their effects and leave them to src/platform/: an effect nobody provided must fail loudly,
 * saying which one, instead of doing nothing.
 */
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine } from 'xstate';
import { appMachine } from '../../machines/app/app.machine';
import { colorModeMachine } from '../../machines/colorMode/colorMode.machine';
import { toasterMachine } from '../../machines/toast/toaster.machine';

/** Calls an implementation (action, guard, or the creator inside callback and promise logic) and says how it failed. */
async function failureOf(implementation: unknown): Promise<string | null> {
  const logic = implementation as { config?: unknown };
  const run = (typeof implementation === 'function' ? implementation : logic.config) as
    | ((...args: unknown[]) => unknown)
    | undefined;
  if (typeof run !== 'function') return null;
  try {
    await run({ input: {}, context: {}, event: { type: 'test' }, sendBack: () => {}, receive: () => {} }, {});
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

async function placeholdersOf(machine: AnyStateMachine): Promise<Record<string, string>> {
  const { actions, actors, guards } = machine.implementations as unknown as Record<
    string,
    Record<string, unknown>
  >;
  const failures: Record<string, string> = {};
  for (const group of [actions, actors, guards]) {
    for (const [name, implementation] of Object.entries(group ?? {})) {
      const message = await failureOf(implementation);
      if (message?.endsWith('is not provided')) failures[name] = message;
    }
  }
  return failures;
}

describe('effects left to the platform', () => {
  it('colour mode: each one throws its own name', async () => {
    expect(await placeholdersOf(colorModeMachine)).toEqual({
      applyColorMode: 'applyColorMode is not provided',
      persistPreference: 'persistPreference is not provided',
      warnCannotForceSystem: 'warnCannotForceSystem is not provided',
      watchSystemColorScheme: 'watchSystemColorScheme is not provided',
      watchStorage: 'watchStorage is not provided',
    });
  });

  it('toaster: each one throws its own name', async () => {
    expect(await placeholdersOf(toasterMachine)).toEqual({
      listenToToastApi: 'listenToToastApi is not provided',
      watchWindowFocus: 'watchWindowFocus is not provided',
      watchPageVisibility: 'watchPageVisibility is not provided',
      listenToHotkey: 'listenToHotkey is not provided',
      listenToEscape: 'listenToEscape is not provided',
    });
  });

  it('app: each one throws its own name', async () => {
    expect(await placeholdersOf(appMachine)).toEqual({
      updateAddressBar: 'updateAddressBar is not provided',
      loadDocument: 'loadDocument is not provided',
      logSuppressedError: 'logSuppressedError is not provided',
      reportRejectedTarget: 'reportRejectedTarget is not provided',
      logManifestFetchError: 'logManifestFetchError is not provided',
      logManifestMatcherError: 'logManifestMatcherError is not provided',
      notifyUpdateAvailable: 'notifyUpdateAvailable is not provided',
      arriveAtPage: 'arriveAtPage is not provided',
      arriveAtFragment: 'arriveAtFragment is not provided',
      showDocumentTitle: 'showDocumentTitle is not provided',
      listenToHistory: 'listenToHistory is not provided',
      watchPage: 'watchPage is not provided',
      loadPage: 'loadPage is not provided',
      detectCrawler: 'detectCrawler is not provided',
      fetchManifest: 'fetchManifest is not provided',
      fetchLatestBuild: 'fetchLatestBuild is not provided',
      claimReload: 'claimReload is not provided',
      preloadPayloads: 'preloadPayloads is not provided',
      revalidatePage: 'revalidatePage is not provided',
      isSlowConnection: 'isSlowConnection guard is not provided',
    });
  });
});
