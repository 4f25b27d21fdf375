/**
 * The demo API (api/plugin.ts, on Kysely over PGlite or PostgreSQL) inside the production server: the
 * database named by the API's own configuration (DATA_DIR or DATABASE_URL) is opened and migrated before the
 * server listens, and closed when it closes (DEMO_API_DELAY_MS is the API's own setting). This is the only place the production server knows how the API
 * is built; its answers go through the server's hooks (security headers, request logs, compression).
 */
import type { FastifyPluginAsync } from 'fastify';
import { type ApiConfig, readApiConfig } from '../api/config.ts';
import { type OpenDatabase, openDatabase } from '../api/database/open.ts';
import { apiPlugin } from '../api/plugin.ts';

export interface DemoApiAdapterOptions {
  /** Defaults to the environment, as api/main.ts reads it. */
  config?: ApiConfig;
  log: Pick<Console, 'error'>;
  /** Told the opened database (the server's metrics read its pool). */
  onOpen?: (database: OpenDatabase) => void;
}

export const demoApiAdapter: FastifyPluginAsync<DemoApiAdapterOptions> = async (app, options) => {
  const config = options.config ?? readApiConfig();
  const database = await openDatabase(config.database);
  app.addHook('onClose', () => database.close());
  options.onOpen?.(database);
  await app.register(apiPlugin, { db: database.db, config, log: options.log });
};
