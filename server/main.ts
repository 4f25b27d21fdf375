/**
 * `npm start` / `npm run serve`: the production server's entry (dist-server/main.mjs, and in the artifact
 * .output/server/index.mjs). It only sizes libuv's thread pool before anything
 * can start it, then loads the server (./start.ts). File reads, argon2id hashes and image renders all run on that
 * pool; with Node's default of 4 threads, a few image renders left static files waiting for seconds.
 * The server leaves half the pool to files (server/routes/images.ts renderSlots). UV_THREADPOOL_SIZE set outside
 * wins.
 */
import { serverLayout } from './layout.ts';

export const DEFAULT_THREADPOOL_SIZE = 16;

process.env.UV_THREADPOOL_SIZE ||= String(DEFAULT_THREADPOOL_SIZE);
const { startServer } = await import('./start.ts');
// This module is the entry: in the artifact it is .output/server/index.mjs, which is how the layout is told.
await startServer(serverLayout(import.meta.url));
