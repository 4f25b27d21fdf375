import './index.css';
import { config } from './config';
import { mountOrReport } from './platform/boot';
import { startEventLog } from './platform/eventLog';
import { nextTask } from './platform/tasks';

// First, so that an error anywhere below can be reported: a start-up failure is rethrown by mountOrReport,
// and reaches the event log as an unhandled rejection.
const eventLog = startEventLog(config.reports);

/**
 * The app's code comes in three parts, each evaluated in a task of its own: React; XState with the machines
 * (built as their modules are evaluated) and the browser's implementations; then the views, which start the app.
 * Evaluated at once, as one graph, they would be one long task after the prerendered page's first paint, where
 * the page cannot answer input (docs/decisions/start-in-parts.md). The HTML preloads all three parts
 * (build/startChunks.ts), so splitting them costs no round trip.
 */
void mountOrReport(async () => {
  await import('react-dom/client');
  await nextTask();
  await import('./platform/app');
  await nextTask();
  const { start } = await import('./start');
  await nextTask();
  await start(eventLog);
});
