// What `npm run db:migrate` and the server's `--migrate` do: bring the configured database (DATA_DIR's embedded
// folder, or DATABASE_URL) up to date and say what ran, without starting a server and without writing demo data.
// With MIGRATE_ON_START=0 this is the step an operator runs before starting (or rolling out) the servers.
import { type DatabaseConfig, DatabaseOpenError, migrateDatabase } from './database/open.ts';

/** Migrates `database`, printing one line; false (with the reason printed) when it could not. */
export async function migrateCommand(database: DatabaseConfig, tag = '[db:migrate]'): Promise<boolean> {
  try {
    const { where, ran } = await migrateDatabase(database);
    console.log(
      ran.length === 0
        ? `${tag} ${where} is up to date: no migration to run.`
        : `${tag} ${where}: ran ${ran.join(', ')}. It is up to date.`,
    );
    return true;
  } catch (error) {
    if (!(error instanceof DatabaseOpenError)) throw error;
    console.error(`${tag} ${error.message}`);
    return false;
  }
}
