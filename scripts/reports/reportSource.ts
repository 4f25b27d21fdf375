/**
 * Where `npm run reports` and `npm run replay` read reports: the database the server uses (DATA_DIR's PGlite
 * folder or DATABASE_URL, as api/config.ts reads them), or, with REPORTS_URL and REPORTS_TOKEN, the
 * running server's GET /api/reports (the way in while a server holds the embedded database's lock).
 */
import { readApiConfig } from '../../api/config.ts';
import { DatabaseOpenError, openDatabase } from '../../api/database/open.ts';
import { listReports } from '../../api/reports.ts';
import type { StoredReport } from '../../api/types.ts';

export class ReportSourceError extends Error {}

export async function readReports(options: { limit: number; id?: string }): Promise<StoredReport[]> {
  const url = process.env.REPORTS_URL;
  if (url) return readThroughServer(url, options);
  const config = readApiConfig();
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    // Reading reports writes no demo data, and needs no check of the accounts.
    database = await openDatabase(config.database, { migrate: config.migrateOnStart, demoData: 'unchecked' });
  } catch (error) {
    if (error instanceof DatabaseOpenError && /in use by another server/.test(error.message)) {
      throw new ReportSourceError(
        `${error.message}\nTo read reports while it runs, start the server with REPORTS_TOKEN=<a secret> and run ` +
          'this again with REPORTS_URL=http://<host>:<port> and the same REPORTS_TOKEN.',
      );
    }
    throw error;
  }
  try {
    return await listReports(database.db, options);
  } finally {
    await database.close();
  }
}

async function readThroughServer(base: string, options: { limit: number; id?: string }) {
  const token = process.env.REPORTS_TOKEN;
  if (!token)
    throw new ReportSourceError('REPORTS_URL is set but REPORTS_TOKEN is not: the server needs its token.');
  const query = new URLSearchParams({
    limit: String(options.limit),
    ...(options.id ? { id: options.id } : {}),
  });
  const response = await fetch(`${base.replace(/\/+$/, '')}/api/reports?${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json().catch(() => ({}))) as { reports?: StoredReport[]; message?: string };
  if (!response.ok || !body.reports) {
    throw new ReportSourceError(
      `${base} answered ${response.status}: ${body.message ?? 'no reports'}${response.status === 405 ? ' (the server has no REPORTS_TOKEN set)' : ''}`,
    );
  }
  return body.reports;
}
