import { StrictMode } from 'react';
import type { InspectionEvent, Observer } from 'xstate';
import type { AppInput } from '../machines/app/app.machine';
import { App } from './App';
import { AppActor, AppViewMirror } from './ui/appActor';

type AppLogic = Parameters<typeof AppActor.Provider>[0]['logic'];

/**
 * The whole tree: the app actor and its view. The browser renders or hydrates it (src/start.tsx) and the
 * build renders it to HTML (src/prerender.tsx), so the markup of both is the same by construction.
 */
export function Root({
  logic,
  input,
  inspect,
}: {
  readonly logic: AppLogic;
  readonly input: AppInput;
  readonly inspect?: Observer<InspectionEvent> | undefined;
}) {
  return (
    <StrictMode>
      <AppActor.Provider logic={logic} options={{ input, ...(inspect ? { inspect } : {}) }}>
        <AppViewMirror>
          <App />
        </AppViewMirror>
      </AppActor.Provider>
    </StrictMode>
  );
}
