// The demo API on its own: `node --import tsx api/main.ts` (PORT, HOST, DATA_DIR or DATABASE_URL,
// and the settings in ./config.ts). Used to run several API processes on one PostgreSQL, by the
// crash and two-process tests, and by the API benchmark.

import { createApiApp } from './app.ts';
import { ConfigError, readApiConfig } from './config.ts';
import { DatabaseOpenError } from './database/open.ts';

try {
  const config = readApiConfig();
  const { app, database } = await createApiApp({ config, trustProxy: process.env.TRUST_PROXY === '1' });
  const address = await app.listen({
    port: Number(process.env.PORT) || 3001,
    host: process.env.HOST || '127.0.0.1',
  });
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
