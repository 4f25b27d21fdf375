import './index.css';
import { createBrowserHistory } from 'history';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { InspectionEvent, Observer } from 'xstate';
import { App } from './App';
import { config } from './config';
import { appInputFrom, createBrowserApp } from './platform/app';
import { mountOrReport } from './platform/boot';
import { AppActor } from './ui/appActor';

async function loadInspector(): Promise<Observer<InspectionEvent> | undefined> {
  if (!import.meta.env.DEV || !new URLSearchParams(window.location.search).has('inspect')) return undefined;
  const { createInspector } = await import('./platform/inspector');
  return createInspector();
}

void mountOrReport(async () => {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element to mount into.');
  const inspect = await loadInspector();
  const logic = createBrowserApp(createBrowserHistory());
  createRoot(container).render(
    <StrictMode>
      <AppActor.Provider
        logic={logic}
        options={{ input: appInputFrom(config), ...(inspect ? { inspect } : {}) }}
      >
        <App />
      </AppActor.Provider>
    </StrictMode>,
  );
});
