// `npm run db:migrate` in a checkout (./migrateCommand.ts; the artifact's server does the same with `--migrate`).
// Reads the same environment as the server, through readApiConfig; exit 0 when the database is up to date, 1 with
// the reason otherwise. `npm run db:migrate -- --remove-demo-data` then removes the demo accounts that still take
// the README's passwords.
import { ConfigError, readApiConfig } from './config.ts';
import { migrateCommand } from './migrateCommand.ts';

try {
  const removeDemoData = process.argv.includes('--remove-demo-data');
  if (!(await migrateCommand(readApiConfig().database, '[db:migrate]', { removeDemoData })))
    process.exitCode = 1;
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`[db:migrate] ${error.message}`);
  process.exitCode = 1;
}
