import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Campaign, CampaignStatus } from './types.ts';

export interface UserRecord {
  id: string;
  email: string;
  displayName: string;
  passwordHash: string;
}

export type CampaignRecord = Omit<Campaign, 'ownerName'>;

export interface SessionRecord {
  id: string;
  userId: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface DbData {
  users: UserRecord[];
  campaigns: CampaignRecord[];
  sessions: SessionRecord[];
}

export type Logger = Pick<Console, 'warn' | 'error'>;

const SEED_URL = new URL('./fixtures/seed.json', import.meta.url);
const STATUSES: readonly CampaignStatus[] = ['draft', 'active', 'paused', 'completed'];

/**
 * A JSON file database. Every operation, reads included, runs one at a time on
 * a promise chain and goes back to disk, so concurrent requests never
 * interleave a read-modify-write and hand edits to db.json show up at once.
 */
export class Db {
  readonly file: string;
  private readonly dir: string;
  private readonly log: Logger;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string, log: Logger = console) {
    this.dir = path.resolve(dataDir);
    this.file = path.join(this.dir, 'db.json');
    this.log = log;
  }

  read(): Promise<DbData> {
    return this.enqueue(() => this.load());
  }

  /** Changes made by `change` are saved unless it throws. */
  update<T>(change: (data: DbData) => T): Promise<T> {
    return this.enqueue(async () => {
      const data = await this.load();
      const result = change(data);
      await this.save(data);
      return result;
    });
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task);
    // One failed operation must not block the ones queued behind it.
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async load(): Promise<DbData> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (!isNotFound(error)) throw error;
      return this.reseed();
    }
    const problem = describeProblem(text);
    if (problem === undefined) return JSON.parse(text) as DbData;
    const aside = path.join(this.dir, `db.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    await rename(this.file, aside);
    this.log.warn(
      `[demo-api] ${this.file} ${problem}; moved it to ${aside} and started again from the seed data.`,
    );
    return this.reseed();
  }

  private async reseed(): Promise<DbData> {
    const seedText = await readFile(SEED_URL, 'utf8');
    const problem = describeProblem(seedText);
    if (problem !== undefined) throw new Error(`server/fixtures/seed.json ${problem}`);
    const data = JSON.parse(seedText) as DbData;
    await this.save(data);
    return data;
  }

  // Write a sibling temp file and rename it over db.json: rename is atomic, so
  // a crash mid-write leaves the old file intact instead of half a JSON doc.
  private async save(data: DbData): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const tmp = `${this.file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await open(tmp, 'w');
      try {
        await handle.writeFile(`${JSON.stringify(data, null, 2)}\n`, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, this.file);
    } catch (error) {
      await unlink(tmp).catch(() => undefined);
      throw error;
    }
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

/** Returns why `text` is not a valid database, or undefined when it is. */
export function describeProblem(text: string): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not valid JSON';
  }
  if (!isRecord(value)) return 'is not a JSON object';
  const { users, campaigns, sessions } = value;
  if (!Array.isArray(users) || !users.every(isUser)) return 'has a malformed "users" list';
  if (!Array.isArray(campaigns) || !campaigns.every(isCampaign)) return 'has a malformed "campaigns" list';
  if (!Array.isArray(sessions) || !sessions.every(isSession)) return 'has a malformed "sessions" list';
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasStrings(value: Record<string, unknown>, keys: readonly string[]): boolean {
  return keys.every((key) => typeof value[key] === 'string');
}

function isUser(value: unknown): value is UserRecord {
  return isRecord(value) && hasStrings(value, ['id', 'email', 'displayName', 'passwordHash']);
}

function isSession(value: unknown): value is SessionRecord {
  return isRecord(value) && hasStrings(value, ['id', 'userId']) && Number.isFinite(value.expiresAt);
}

function isAmount(value: unknown): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isCampaign(value: unknown): value is CampaignRecord {
  return (
    isRecord(value) &&
    Number.isSafeInteger(value.id) &&
    (value.id as number) > 0 &&
    hasStrings(value, ['title', 'summary', 'description', 'ownerId', 'startsOn', 'endsOn']) &&
    STATUSES.includes(value.status as CampaignStatus) &&
    isAmount(value.goal) &&
    isAmount(value.raised) &&
    typeof value.featured === 'boolean'
  );
}
