// `npm run db:migrate`: brings the configured database (DATA_DIR's embedded folder, or DATABASE_URL) up to date
// and exits, without starting a server and without writing demo data. With MIGRATE_ON_START=0 this is the step
// an operator runs before starting (or rolling out) the servers. Reads the same environment as the server,
// through readApiConfig; exit 0 when the database is up to date, 1 with the reason otherwise.

import { ConfigError, readApiConfig } from './config.ts';
import { DatabaseOpenError, migrateDatabase } from './database/open.ts';

try {
  const { where, ran } = await migrateDatabase(readApiConfig().database);
  console.log(
    ran.length === 0
      ? `[db:migrate] ${where} is up to date: no migration to run.`
      : `[db:migrate] ${where}: ran ${ran.join(', ')}. It is up to date.`,
  );
} catch (error) {
  if (!(error instanceof DatabaseOpenError || error instanceof ConfigError)) throw error;
  console.error(`[db:migrate] ${error.message}`);
  process.exitCode = 1;
}
