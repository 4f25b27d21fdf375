// What `npm run db:migrate` and the server's `--migrate` do: bring the configured database (DATA_DIR's embedded
// folder, or DATABASE_URL) up to date and say what ran, without starting a server and without writing demo data.
// With MIGRATE_ON_START=0 this is the step an operator runs before starting (or rolling out) the servers.
// `--remove-demo-data` also removes the demo accounts a database kept from the old 0002_seed, which a server with
// DEMO_DATA off refuses to start on.
import { type DatabaseConfig, DatabaseOpenError, migrateDatabase } from './database/open.ts';

/**
 * Migrates `database`, printing one line; with `removeDemoData` (`--remove-demo-data`), then removes the demo
 * accounts whose passwords the README publishes, and says what it removed. False (with the reason printed) when
 * it could not.
 */
export async function migrateCommand(
  database: DatabaseConfig,
  tag = '[db:migrate]',
  { removeDemoData = false }: { removeDemoData?: boolean } = {},
): Promise<boolean> {
  try {
    const { where, ran, removed } = await migrateDatabase(database, { removeDemoData });
    console.log(
      ran.length === 0
        ? `${tag} ${where} is up to date: no migration to run.`
        : `${tag} ${where}: ran ${ran.join(', ')}. It is up to date.`,
    );
    if (removed)
      console.log(
        removed.accounts.length === 0
          ? `${tag} No demo account with a published password is left: nothing to remove.`
          : `${tag} Removed ${removed.accounts.length} demo account${removed.accounts.length === 1 ? '' : 's'} ` +
              `(${removed.accounts.join(', ')}), their sessions and their ${removed.campaigns} ` +
              `campaign${removed.campaigns === 1 ? '' : 's'}.`,
      );
    return true;
  } catch (error) {
    if (!(error instanceof DatabaseOpenError)) throw error;
    console.error(`${tag} ${error.message}`);
    return false;
  }
}
