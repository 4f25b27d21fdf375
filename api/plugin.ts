import fastifyCookie from '@fastify/cookie';
import { Ajv } from 'ajv';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { Kysely } from 'kysely';
import { type Accounts, createAccounts, publicUser } from './accounts.ts';
import { limitKey } from './clientAddress.ts';
import type { ApiConfig } from './config.ts';
import type { Database, User } from './database/schema.ts';
import { describeError, type FieldMessages, HttpError } from './errors.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './jsonBody.ts';
import { type ApiLog, loggable, loggablePath } from './logSafe.ts';
import { pruneInOneInstance } from './pruning.ts';
import { reportRoutes } from './reports.ts';
import * as schemas from './schemas.ts';
import type {
  Campaign,
  CampaignListResponse,
  CampaignResponse,
  CampaignSummary,
  ProfileResponse,
  ProfileUpdateRequest,
  SessionResponse,
  SignInRequest,
  SignInResponse,
} from './types.ts';

export interface ApiPluginOptions {
  db: Kysely<Database>;
  config: ApiConfig;
  /** Clock for session times; tests replace it. */
  now?: () => number;
  /** Where unexpected failures are reported (never with a query's parameters: ./logSafe.ts). */
  log?: ApiLog;
  /** Shared with the form routes (api/forms.ts) when both are served; otherwise made here. */
  accounts?: Accounts;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Clear wording for this route's validation failures (see ./errors.ts). */
    messages?: FieldMessages;
    /** A stand-in route that only answers 405. */
    methodNotAllowed?: boolean;
  }
}

/** Longer API URLs are refused with a 414: no route of this API needs more, and the router's limit is 2048. */
const MAX_URL_LENGTH = 2048;
/** How much of an unknown path a 404 message echoes back. */
const MAX_ECHOED_PATH = 200;
const PRUNE_EVERY_MS = 10 * 60 * 1000;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ALL_METHODS: HTTPMethods[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The demo API as a Fastify plugin: register it with `{ prefix: '/api' }` on any Fastify 5 instance.
 * It owns nothing global: cookies, JSON parsing, validation and error answers are set up inside its
 * own encapsulated scope, and it keeps no state between requests that another process would need.
 */
export const apiPlugin: FastifyPluginAsync<ApiPluginOptions> = async (app, options) => {
  const { db, config } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? console;
  const accounts = options.accounts ?? createAccounts({ db, config, now, log });
  const { sessions, cookieName } = accounts;

  if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);

  // Types are never coerced ("42" is not 42) and unknown body fields are refused, not dropped.
  // (Ajv's own defaults, written out: Fastify's are the opposite.)
  const ajv = new Ajv({ coerceTypes: false, removeAdditional: false });
  app.setValidatorCompiler(({ schema }) => ajv.compile(schema));

  // JSON only: a cross-site HTML form can send text/plain or form encodings without a preflight, so
  // Fastify's JSON parser (which also refuses prototype-poisoning keys) is the only one left here.
  // Nesting is bounded on the text, before JSON.parse and everything after it recurses (./jsonBody.ts).
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
      done(
        new HttpError(400, `The request body nests too deeply (at most ${MAX_JSON_DEPTH} levels).`),
        undefined,
      );
      return;
    }
    parseJson(request, body as string, done);
  });

  app.addHook('onRoute', (route) => {
    route.bodyLimit ??= config.bodyLimitBytes;
  });

  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method) || request.routeOptions.config.methodNotAllowed) return;
    accounts.checkOrigin(request);
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    // Every other write must say JSON, body or not. DELETE carries no body, so it needs no type; a body sent
    // with one anyway meets the parsers, JSON's alone, and any other type gets the same 415 from Fastify.
    if (request.method !== 'DELETE' && type !== 'application/json') {
      throw new HttpError(415, 'Send the request body as JSON (Content-Type: application/json).');
    }
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    if (config.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.delayMs));
    return payload;
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.code(error.statusCode).headers(error.headers).send({ message: error.message });
    }
    const described = describeError(
      error,
      request.routeOptions.config?.messages,
      request.routeOptions.bodyLimit ?? config.bodyLimitBytes,
    );
    if (described) return reply.code(described.status).send(described.body);
    log.error(`[demo-api] ${request.method} ${loggablePath(request.url)} failed:`, loggable(error));
    return reply.code(500).send({ message: 'The demo API failed unexpectedly.' });
  });

  const noRoute = async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.url.length > MAX_URL_LENGTH) {
      return reply.code(414).send({ message: `The URL is too long (at most ${MAX_URL_LENGTH} characters).` });
    }
    const path = request.url.split('?')[0] ?? '';
    const shown = path.length > MAX_ECHOED_PATH ? `${path.slice(0, MAX_ECHOED_PATH)}…` : path;
    return reply.code(404).send({ message: `No API route for ${request.method} ${shown}.` });
  };
  app.setNotFoundHandler(noRoute);
  // Every URL under the prefix is the API's, whatever no route here matched (a parameter longer than the
  // router takes, say): without these it would reach the production server's page fallback and get HTML.
  app.all('/', noRoute);
  app.all('/*', noRoute);

  const readCookie = (request: FastifyRequest) => request.cookies[cookieName];
  const setSessionCookie = (reply: FastifyReply, token: string, maxAgeSeconds: number) =>
    reply.setCookie(cookieName, token, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: config.secureCookie,
      maxAge: maxAgeSeconds,
    });
  const requireUser = async (request: FastifyRequest): Promise<User> => {
    const user = await sessions.user(readCookie(request));
    if (!user) throw new HttpError(401, 'You need to sign in first.');
    return user;
  };

  // --- routes -----------------------------------------------------------------

  // Every method each path answers, for the 405s below.
  const routes = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    if (route.config?.methodNotAllowed) return;
    const path = route.url.slice(route.prefix.length) || '/';
    const methods = routes.get(path) ?? new Set<string>();
    for (const method of [route.method].flat()) methods.add(method);
    routes.set(path, methods);
  });

  app.get(
    '/session',
    { schema: { response: schemas.sessionResponse } },
    async (request): Promise<SessionResponse> => {
      const user = await sessions.user(readCookie(request));
      return { user: user ? publicUser(user) : null };
    },
  );

  const required = 'Email and password are required.';
  const signInMessages: FieldMessages = {
    email: { required, type: required, minLength: required },
    password: { required, type: required, minLength: required },
  };
  app.post<{ Body: SignInRequest }>(
    '/session',
    {
      schema: { body: schemas.signInBody, response: schemas.signInResponse },
      config: { messages: signInMessages },
    },
    async (request, reply): Promise<SignInResponse> => {
      const { user, token } = await accounts.signIn({
        email: request.body.email,
        password: request.body.password,
        address: limitKey(request.ip),
        previousToken: readCookie(request),
      });
      setSessionCookie(reply, token, config.sessions.absoluteSeconds);
      return { user: publicUser(user) };
    },
  );

  app.delete('/session', { schema: { response: schemas.noContent } }, async (request, reply) => {
    await accounts.signOut(readCookie(request));
    setSessionCookie(reply, '', 0);
    return reply.code(204).send();
  });

  app.get<{ Querystring: { featured?: string } }>(
    '/campaigns',
    { schema: { querystring: schemas.campaignListQuery, response: schemas.campaignListResponse } },
    async (request): Promise<CampaignListResponse> => {
      const featuredOnly = ['1', 'true'].includes(request.query.featured ?? '');
      let query = db.selectFrom('campaigns').select(SUMMARY_COLUMNS).where('status', '<>', 'draft');
      if (featuredOnly) query = query.where('featured', '=', true);
      const rows = await query.orderBy('featured', 'desc').orderBy('id').execute();
      return { campaigns: rows.map(campaignSummary) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/campaigns/:id',
    {
      schema: { params: schemas.campaignParams, response: schemas.campaignResponse },
      config: { messages: { id: { '*': 'Campaign id must be a positive whole number.' } } },
    },
    async (request): Promise<CampaignResponse> => {
      const raw = request.params.id;
      const id = Number(raw);
      // Past the integer column's range nothing can exist.
      const row =
        id <= 2_147_483_647
          ? await db
              .selectFrom('campaigns')
              // Every campaign has an owner: owner_id is a required reference to users.
              .innerJoin('users', 'users.id', 'campaigns.ownerId')
              .select(SUMMARY_COLUMNS.map((column) => `campaigns.${column}` as const))
              .select(['description', 'ownerId', 'startsOn', 'endsOn', 'users.displayName as ownerName'])
              .where('campaigns.id', '=', id)
              .executeTakeFirst()
          : undefined;
      // Drafts are private: to anyone but their owner they do not exist.
      const visible =
        row && (row.status !== 'draft' || (await sessions.user(readCookie(request)))?.id === row.ownerId);
      if (!row || !visible) throw new HttpError(404, `Campaign ${raw} does not exist.`);
      const campaign: Campaign = {
        ...campaignSummary(row),
        description: row.description,
        ownerId: row.ownerId,
        ownerName: row.ownerName,
        startsOn: row.startsOn,
        endsOn: row.endsOn,
      };
      return { campaign };
    },
  );

  app.get(
    '/me/campaigns',
    { schema: { response: schemas.campaignListResponse } },
    async (request): Promise<CampaignListResponse> => {
      const user = await requireUser(request);
      const rows = await db
        .selectFrom('campaigns')
        .select(SUMMARY_COLUMNS)
        .where('ownerId', '=', user.id)
        .orderBy('id')
        .execute();
      return { campaigns: rows.map(campaignSummary) };
    },
  );

  app.get(
    '/profile',
    { schema: { response: schemas.profileResponse } },
    async (request): Promise<ProfileResponse> => {
      return { profile: publicUser(await requireUser(request)) };
    },
  );

  const nameRequired = 'Display name is required and must be text.';
  app.patch<{ Body: ProfileUpdateRequest }>(
    '/profile',
    {
      schema: { body: schemas.profileUpdateBody, response: schemas.profileResponse },
      config: { messages: { displayName: { required: nameRequired, type: nameRequired } } },
    },
    async (request): Promise<ProfileResponse> => {
      const updated = await accounts.saveProfile(readCookie(request), request.body.displayName);
      return { profile: publicUser(updated) };
    },
  );

  const reports = reportRoutes(app, {
    db,
    config: config.reports,
    now,
    addressOf: (request) => limitKey(request.ip),
    log: { warn: log.warn ?? log.error },
  });

  // Any other method on a known path: 405 with the methods that work.
  for (const [url, methods] of routes) {
    const others = ALL_METHODS.filter((method) => !methods.has(method));
    const allow = [...methods].filter((method) => method !== 'HEAD').join(', ');
    app.route({
      method: others,
      url,
      config: { methodNotAllowed: true },
      handler: async (request) => {
        throw new HttpError(
          405,
          `${request.method} is not allowed on ${request.url.split('?')[0]}; use ${allow}.`,
          {
            allow,
          },
        );
      },
    });
  }

  // Expired and idle sessions are deleted at sign-in (the user's own) and swept here (everyone's), by one
  // instance at a time when several share a PostgreSQL database (./pruning.ts).
  const prune = () =>
    pruneInOneInstance(db, [(trx) => sessions.prune(trx), (trx) => reports.prune(trx)]).catch(
      (error: unknown) => log.error('[demo-api] pruning sessions and reports failed:', loggable(error)),
    );
  await prune();
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
};

const SUMMARY_COLUMNS = ['id', 'title', 'summary', 'status', 'goal', 'raised', 'featured', 'image'] as const;

function campaignSummary(row: CampaignSummary): CampaignSummary {
  return {
    id: row.id,
    title: row.title,
    summary: row.summary,
    status: row.status,
    goal: row.goal,
    raised: row.raised,
    featured: row.featured,
    image: row.image,
  };
}
