import { randomBytes } from 'node:crypto';
import { type CampaignRecord, Db, type DbData, type Logger, type UserRecord } from './db.ts';
import { verifyPassword } from './passwords.ts';
import type { ApiErrorBody, Campaign, CampaignSummary, PublicUser } from './types.ts';

export interface ApiRequest {
  method: string;
  /** Path plus query string, as in node's `req.url`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** Raw request body; undefined or '' when there is none. */
  body?: string | undefined;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** Serialised as JSON; undefined means no body (204). */
  body?: unknown;
}

export type ApiHandler = (request: ApiRequest) => Promise<ApiResponse>;

export interface ApiOptions {
  dataDir: string;
  log?: Logger;
  /** Clock for session expiry; tests replace it. */
  now?: () => number;
}

const SESSION_SECONDS = 7 * 24 * 60 * 60;
const DISPLAY_NAME_MAX = 60;

class HttpError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
  }
}

interface Context {
  db: Db;
  now: number;
  request: ApiRequest;
  url: URL;
  params: string[];
}

type Route = {
  pattern: RegExp;
  methods: Partial<Record<string, (ctx: Context) => Promise<ApiResponse>>>;
};

const routes: Route[] = [
  { pattern: /^\/api\/session$/, methods: { GET: getSession, POST: signIn, DELETE: signOut } },
  { pattern: /^\/api\/campaigns$/, methods: { GET: listCampaigns } },
  { pattern: /^\/api\/campaigns\/([^/]+)$/, methods: { GET: getCampaign } },
  { pattern: /^\/api\/me\/campaigns$/, methods: { GET: listMyCampaigns } },
  { pattern: /^\/api\/profile$/, methods: { GET: getProfile, PATCH: updateProfile } },
];

export function createApi(options: ApiOptions): ApiHandler {
  const log = options.log ?? console;
  const db = new Db(options.dataDir, log);
  const clock = options.now ?? Date.now;

  return async (request) => {
    try {
      const url = new URL(request.url, 'http://localhost');
      const method = request.method.toUpperCase();
      for (const route of routes) {
        const match = route.pattern.exec(url.pathname);
        if (!match) continue;
        const handler = Object.hasOwn(route.methods, method) ? route.methods[method] : undefined;
        if (!handler) {
          const allow = Object.keys(route.methods).join(', ');
          throw new HttpError(405, `${method} is not allowed on ${url.pathname}; use ${allow}.`, { allow });
        }
        return await handler({ db, now: clock(), request, url, params: match.slice(1) });
      }
      throw new HttpError(404, `No API route for ${method} ${url.pathname}.`);
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error.status, error.message, error.headers);
      log.error(`[demo-api] ${request.method} ${request.url} failed:`, error);
      return errorResponse(500, 'The demo API failed unexpectedly.');
    }
  };
}

// --- handlers -------------------------------------------------------------

async function getSession(ctx: Context): Promise<ApiResponse> {
  const user = findSignedInUser(await ctx.db.read(), ctx);
  return json(200, { user: user ? publicUser(user) : null });
}

async function signIn(ctx: Context): Promise<ApiResponse> {
  const body = parseJsonObject(ctx.request.body);
  const { email, password } = body;
  if (typeof email !== 'string' || typeof password !== 'string' || email.trim() === '' || password === '') {
    throw new HttpError(400, 'Email and password are required.');
  }
  const wanted = email.trim().toLowerCase();
  const user = (await ctx.db.read()).users.find((candidate) => candidate.email.toLowerCase() === wanted);
  const passwordMatches = await verifyPassword(password, user?.passwordHash);
  if (!user || !passwordMatches) throw new HttpError(401, 'Incorrect email or password');

  const sid = randomBytes(32).toString('base64url');
  // Drop the caller's previous session (no fixation) and any expired ones.
  const previous = readSessionId(ctx.request);
  await ctx.db.update((data) => {
    data.sessions = data.sessions.filter((s) => s.expiresAt > ctx.now && s.id !== previous);
    data.sessions.push({ id: sid, userId: user.id, expiresAt: ctx.now + SESSION_SECONDS * 1000 });
  });
  return json(200, { user: publicUser(user) }, { 'set-cookie': sessionCookie(sid, SESSION_SECONDS) });
}

async function signOut(ctx: Context): Promise<ApiResponse> {
  const sid = readSessionId(ctx.request);
  if (sid !== undefined) {
    await ctx.db.update((data) => {
      data.sessions = data.sessions.filter((s) => s.id !== sid);
    });
  }
  return { status: 204, headers: { ...BASE_HEADERS, 'set-cookie': sessionCookie('', 0) } };
}

async function listCampaigns(ctx: Context): Promise<ApiResponse> {
  const featuredOnly = ['1', 'true'].includes(ctx.url.searchParams.get('featured') ?? '');
  const campaigns = (await ctx.db.read()).campaigns
    .filter((c) => c.status !== 'draft' && (!featuredOnly || c.featured))
    .sort((a, b) => Number(b.featured) - Number(a.featured) || a.id - b.id);
  return json(200, { campaigns: campaigns.map(campaignSummary) });
}

async function getCampaign(ctx: Context): Promise<ApiResponse> {
  const raw = ctx.params[0] ?? '';
  if (!/^[1-9][0-9]*$/.test(raw)) throw new HttpError(400, 'Campaign id must be a positive whole number.');
  const data = await ctx.db.read();
  const id = Number(raw);
  const campaign = data.campaigns.find((c) => c.id === id);
  // Drafts are private: to anyone but their owner they do not exist.
  const visible =
    campaign && (campaign.status !== 'draft' || findSignedInUser(data, ctx)?.id === campaign.ownerId);
  if (!campaign || !visible) throw new HttpError(404, `Campaign ${raw} does not exist.`);
  const ownerName = data.users.find((u) => u.id === campaign.ownerId)?.displayName ?? 'Unknown organiser';
  // Listed field by field so stray keys hand-added to db.json never leak out.
  const body: Campaign = {
    ...campaignSummary(campaign),
    description: campaign.description,
    ownerId: campaign.ownerId,
    ownerName,
    startsOn: campaign.startsOn,
    endsOn: campaign.endsOn,
  };
  return json(200, { campaign: body });
}

async function listMyCampaigns(ctx: Context): Promise<ApiResponse> {
  const data = await ctx.db.read();
  const user = requireUser(data, ctx);
  const campaigns = data.campaigns.filter((c) => c.ownerId === user.id).sort((a, b) => a.id - b.id);
  return json(200, { campaigns: campaigns.map(campaignSummary) });
}

async function getProfile(ctx: Context): Promise<ApiResponse> {
  const user = requireUser(await ctx.db.read(), ctx);
  return json(200, { profile: publicUser(user) });
}

async function updateProfile(ctx: Context): Promise<ApiResponse> {
  requireUser(await ctx.db.read(), ctx);
  const displayName = validateDisplayName(parseJsonObject(ctx.request.body).displayName);
  const profile = await ctx.db.update((data) => {
    // Look again inside the update: the session may have ended meanwhile.
    const user = requireUser(data, ctx);
    user.displayName = displayName;
    return publicUser(user);
  });
  return json(200, { profile });
}

// --- helpers --------------------------------------------------------------

const BASE_HEADERS = { 'cache-control': 'no-store' } as const;

function json(status: number, body: object, headers: Record<string, string> = {}): ApiResponse {
  return {
    status,
    headers: { ...BASE_HEADERS, 'content-type': 'application/json; charset=utf-8', ...headers },
    body,
  };
}

export function errorResponse(
  status: number,
  message: string,
  headers?: Record<string, string>,
): ApiResponse {
  const body: ApiErrorBody = { message };
  return json(status, body, headers);
}

// No `Secure`: the dev and preview servers usually run on plain http.
function sessionCookie(value: string, maxAgeSeconds: number): string {
  return `sid=${value}; HttpOnly; SameSite=Lax; Path=/; Max-Age=${maxAgeSeconds}`;
}

function readSessionId(request: ApiRequest): string | undefined {
  const header = request.headers.cookie;
  const cookies = Array.isArray(header) ? header.join('; ') : (header ?? '');
  for (const part of cookies.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === 'sid' && value.length > 0) return value.join('=') || undefined;
  }
  return undefined;
}

function findSignedInUser(data: DbData, ctx: Context): UserRecord | undefined {
  const sid = readSessionId(ctx.request);
  if (sid === undefined) return undefined;
  const session = data.sessions.find((s) => s.id === sid && s.expiresAt > ctx.now);
  return session && data.users.find((u) => u.id === session.userId);
}

function requireUser(data: DbData, ctx: Context): UserRecord {
  const user = findSignedInUser(data, ctx);
  if (!user) throw new HttpError(401, 'You need to sign in first.');
  return user;
}

function parseJsonObject(body: string | undefined): Record<string, unknown> {
  if (body === undefined || body.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw new HttpError(400, 'The request body must be valid JSON.');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'The request body must be a JSON object.');
  }
  return value as Record<string, unknown>;
}

function validateDisplayName(value: unknown): string {
  if (typeof value !== 'string') throw new HttpError(400, 'Display name is required and must be text.');
  const name = value.trim();
  // Count code points, not UTF-16 units, so emoji count as one character.
  const length = [...name].length;
  if (length < 1 || length > DISPLAY_NAME_MAX) {
    throw new HttpError(400, `Display name must be between 1 and ${DISPLAY_NAME_MAX} characters.`);
  }
  if (/\p{Cc}/u.test(name)) throw new HttpError(400, 'Display name must not contain control characters.');
  return name;
}

function publicUser(user: UserRecord): PublicUser {
  return { id: user.id, email: user.email, displayName: user.displayName };
}

function campaignSummary(c: CampaignRecord): CampaignSummary {
  return {
    id: c.id,
    title: c.title,
    summary: c.summary,
    status: c.status,
    goal: c.goal,
    raised: c.raised,
    featured: c.featured,
    // Records from before images existed have none; anything but a string is treated the same.
    image: typeof c.image === 'string' ? c.image : null,
  };
}
