import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
import type { CampaignStatus } from '../types.ts';

// The typed schema of the demo API's database. Column names are snake_case in SQL and camelCase here
// (Kysely's CamelCasePlugin maps them). Migrations under ./migrations create exactly this; a test
// compares the two through the database's own catalogue.

export interface UsersTable {
  id: string;
  email: string;
  /** The email's NFKC lower-case form (api/accounts.ts's emailKey), unique: what an address is compared by. */
  emailKey: string;
  displayName: string;
  /** A PHC string, `$argon2id$v=19$m=…,t=…,p=…$salt$hash`; anything else matches no password. */
  passwordHash: string;
  createdAt: ColumnType<Date, Date | undefined, never>;
}

export interface CampaignsTable {
  id: number;
  title: string;
  summary: string;
  description: string;
  status: CampaignStatus;
  /** Whole currency units. */
  goal: number;
  raised: number;
  ownerId: string;
  featured: boolean;
  image: string | null;
  /** `date` columns, read back as `YYYY-MM-DD` text (see the type parsers in ./open.ts). */
  startsOn: string;
  endsOn: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a copy of the table does not hand out live sessions. */
  idHash: string;
  userId: string;
  createdAt: Date;
  lastSeenAt: Date;
  /** Absolute expiry: createdAt plus the absolute lifetime. */
  expiresAt: Date;
}

/** The layout rate-limiter-flexible's Postgres store expects (created by our migration, not by it). */
export interface RateLimitsTable {
  key: string;
  points: number;
  /** Milliseconds since the epoch; int8, which node-postgres reads as text. */
  expire: ColumnType<string | number | null, number | null, number | null>;
}

/** Reports from the browser (api/reports.ts); `body` is the whole ReportBody as JSON. */
export interface ReportsTable {
  id: string;
  receivedAt: ColumnType<Date, Date | undefined, never>;
  kind: 'error' | 'vitals';
  buildId: string;
  routeName: string | null;
  path: string;
  errorName: string | null;
  errorMessage: string | null;
  errorStatus: number | null;
  /** jsonb: node-postgres and PGlite both parse it on the way out. */
  body: ColumnType<unknown, string, never>;
}

export interface Database {
  users: UsersTable;
  campaigns: CampaignsTable;
  sessions: SessionsTable;
  rateLimits: RateLimitsTable;
  /** The per-address flood limits (UNLOGGED: migrations/0006_request_limits.ts), in the same layout. */
  requestLimits: RateLimitsTable;
  reports: ReportsTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type CampaignRow = Selectable<CampaignsTable>;
export type SessionRow = Selectable<SessionsTable>;
