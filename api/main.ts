// The demo API on its own: `node --import tsx api/main.ts` (PORT, HOST, and the API's variables in ./config.ts,
// read through the one schema of ./environment.ts). Used to run several API processes on one PostgreSQL, by
// the crash and two-process tests, and by the API benchmark.

import { createApiApp } from './app.ts';
import { API_ENVIRONMENT, apiConfigFrom } from './config.ts';
import { DatabaseOpenError } from './database/open.ts';
import { ConfigError, host, readEnvironment, whole } from './environment.ts';

const ENVIRONMENT = {
  PORT: whole('the port the API listens on', 3001, { min: 1, max: 65_535 }),
  HOST: host('the interface it listens on', '127.0.0.1'),
  ...API_ENVIRONMENT,
} as const;

try {
  const env = readEnvironment(ENVIRONMENT, process.env);
  const { app, database } = await createApiApp({ config: apiConfigFrom(env), trustProxy: env.TRUST_PROXY });
  const address = await app.listen({ port: env.PORT, host: env.HOST });
  // One line that a parent process can wait for.
  console.log(`[demo-api] listening on ${address} with ${database.where} (pid ${process.pid})`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    });
  }
} catch (error) {
  if (error instanceof DatabaseOpenError || error instanceof ConfigError) {
    console.error(`[demo-api] ${error.message}`);
    process.exit(1);
  }
  throw error;
}
