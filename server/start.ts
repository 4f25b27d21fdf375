/**
 * The production server, loaded by ./main.ts once the thread pool is sized. Built into dist-server/ by
 * vite.server.config.ts. Every environment variable is read through one schema (server/environment.ts); a bad
 * value stops the start with a message naming it. `--check-config` prints the effective configuration, secrets
 * masked, and exits (1 if it is not valid); `--migrate` runs the database's pending migrations and exits (the
 * release step with MIGRATE_ON_START=0), and with `--remove-demo-data` removes the demo accounts that still take
 * the README's passwords.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import closeWithGrace from 'close-with-grace';
import { ConfigError, describeEnvironment } from '../api/environment.ts';
import { migrateCommand } from '../api/migrateCommand.ts';
import { buildServer } from './app.ts';
import { readServerEnvironment, SERVER_ENVIRONMENT, type ServerEnvironment } from './environment.ts';
import type { ServerLayout } from './layout.ts';
import { serverOptionsFrom } from './options.ts';

/** Starts the server whose build and images are where `layout` says (the entry module knows which). */
export async function startServer(layout: ServerLayout): Promise<void> {
  if (process.argv.includes('--check-config')) {
    try {
      const rows = describeEnvironment(SERVER_ENVIRONMENT, process.env);
      const width = Math.max(...rows.map((row) => row.name.length));
      for (const row of rows)
        console.log(`${row.name.padEnd(width)}  ${row.value}\n${' '.repeat(width + 2)}${row.doc}`);
      console.log('\nThe configuration is valid.');
      process.exit(0);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      console.error(`The configuration is not valid:\n${error.message}`);
      process.exit(1);
    }
  }

  let env: ServerEnvironment;
  try {
    env = readServerEnvironment();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`Could not start the server: the configuration is not valid.\n${error.message}`);
    process.exit(1);
  }

  const port = env.PORT;
  const host = env.HOST;

  // The artifact has no tsx for `npm run db:migrate`: `node server/index.mjs --migrate` is the same step.
  if (process.argv.includes('--migrate')) {
    const options = serverOptionsFrom(env, layout);
    const removeDemoData = process.argv.includes('--remove-demo-data');
    process.exit((await migrateCommand(options.api.database, '[migrate]', { removeDemoData })) ? 0 : 1);
  }

  /** Fails with one line, not a stack: a missing build, an unreadable data folder, a database that will not open. */
  async function start() {
    const options = serverOptionsFrom(env, layout);
    if (!existsSync(path.join(options.distDir, 'index.html'))) {
      console.error(`No production build in ${options.distDir}: run \`npm run build\` first.`);
      process.exit(1);
    }
    try {
      return await buildServer(options);
    } catch (error) {
      console.error(`Could not start the server: ${(error as Error).message}`);
      process.exit(1);
    }
  }

  const app = await start();

  // SIGTERM/SIGINT: /healthz answers 503 at once; for DRAIN_DELAY_MS requests are still served (a proxy or
  // orchestrator that checks /healthz stops sending meanwhile); then the port closes, in-flight requests finish,
  // and the process exits 0. A second signal, or SHUTDOWN_GRACE_MS running out (delay included), exits 1 at once.
  closeWithGrace({ delay: env.SHUTDOWN_GRACE_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal, drainMs: env.DRAIN_DELAY_MS }, 'shutting down');
    app.startDraining();
    if (!err && env.DRAIN_DELAY_MS > 0)
      await new Promise((resolve) => setTimeout(resolve, env.DRAIN_DELAY_MS));
    await app.close();
  });

  try {
    await app.listen({ port, host });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'EADDRINUSE')
      console.error(`Port ${port} on ${host} is already in use: stop what holds it, or set PORT.`);
    else if (code === 'EACCES')
      console.error(`Not allowed to listen on port ${port} on ${host}: set PORT above 1023.`);
    else console.error(`Could not start the server: ${(error as Error).message}`);
    process.exit(1);
  }
}
