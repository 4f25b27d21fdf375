import { StrictMode } from 'react';
import { App } from './App';
import { AppActorProvider, type AppActorRef, AppViewMirror } from './platform/appActor';

/**
 * The whole tree: the app actor and its view. The browser renders or hydrates it (src/start.tsx) and the
 * build renders it to HTML (src/prerender.tsx), each with an actor of its own making, so the markup of both is
 * the same by construction.
 */
export function Root({ actor }: { readonly actor: AppActorRef }) {
  return (
    <StrictMode>
      <AppActorProvider actor={actor}>
        <AppViewMirror>
          <App />
        </AppViewMirror>
      </AppActorProvider>
    </StrictMode>
  );
}
