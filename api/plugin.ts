import fastifyCookie from '@fastify/cookie';
import { Ajv } from 'ajv';
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { type Accounts, createAccounts } from './accounts.ts';
import type { ApiConfig } from './config.ts';
import type { Database } from './database/schema.ts';
import { errorAnswers, HttpError } from './errors.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from './jsonBody.ts';
import { type ApiLog, loggable } from './logSafe.ts';
import { pruneInOneInstance } from './pruning.ts';
import { pruneReports } from './reports.ts';
import { campaignRoutes } from './routes/campaigns.ts';
import type { RouteContext } from './routes/context.ts';
import { collectOpenApi, openApiRoutes } from './routes/openapi.ts';
import { profileRoutes } from './routes/profile.ts';
import { reportRoutes } from './routes/reports.ts';
import { sessionRoutes } from './routes/session.ts';
import { answerUnknownPaths, recordMethods } from './unmatched.ts';

export interface ApiPluginOptions {
  db: Kysely<Database>;
  config: ApiConfig;
  /** Clock for session times; tests replace it. */
  now?: () => number;
  /** Where unexpected failures are reported (never with a query's parameters: ./logSafe.ts). */
  log?: ApiLog;
  /** Shared with the form routes (./routes/forms.ts) when both are served; otherwise made here. */
  accounts?: Accounts;
}

const PRUNE_EVERY_MS = 10 * 60 * 1000;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The demo API as a Fastify plugin: register it with `{ prefix: '/api' }` on any Fastify 5 instance.
 * It owns nothing global: cookies, JSON parsing, validation and error answers are set up inside its
 * own encapsulated scope, and it keeps no state between requests that another process would need.
 * The routes are one plugin per resource (./routes/), registered inside that scope, so all of this applies to
 * each of them.
 */
export const apiPlugin: FastifyPluginAsync<ApiPluginOptions> = async (app, options) => {
  const { db, config } = options;
  const now = options.now ?? Date.now;
  const log = options.log ?? console;
  const accounts = options.accounts ?? createAccounts({ db, config, now, log });
  const context: RouteContext = { db, config, accounts, now, log };

  if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);

  // Types are never coerced ("42" is not 42) and unknown fields are refused (Ajv's defaults; Fastify's differ).
  // Stryker disable next-line ObjectLiteral: both values are Ajv's own defaults, written out because Fastify's built-in validator has the opposite ones. Each is tested on its own (a number where text is expected is refused; an unknown field is refused, not dropped: tests/api/input.test.ts).
  const ajv = new Ajv({ coerceTypes: false, removeAdditional: false });
  app.setValidatorCompiler(({ schema }) => ajv.compile(schema));

  // JSON only: a cross-site HTML form can send text/plain or form encodings without a preflight, so
  // Fastify's JSON parser (which also refuses prototype-poisoning keys) is the only one left here.
  // Nesting is bounded on the text, before JSON.parse and everything after it recurses (./jsonBody.ts).
  app.removeAllContentTypeParsers();
  // Stryker disable next-line StringLiteral: Fastify hands these to secure-json-parse, which treats any value but 'remove' or 'ignore' as 'error', so a body with __proto__ or constructor.prototype is still refused (tests/api/). Written out so that the choice is visible.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepthExceeds(body as string, MAX_JSON_DEPTH)) {
      const message = `The request body nests too deeply (at most ${MAX_JSON_DEPTH} levels).`;
      done(new HttpError(400, message), undefined);
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
    // Stryker disable next-line OptionalChaining: `split` always returns at least one element, so `[0]` is never undefined; the `?.` is there for TypeScript's unchecked index access.
    // Stryker disable next-line StringLiteral: without a Content-Type the fallback is compared with 'application/json', and no fixed text but that one passes, so a write without a type still gets the 415.
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    // Every other write must say JSON, body or not. DELETE carries no body, so it needs no type; a body sent
    // with one anyway meets the parsers, JSON's alone, and any other type gets the same 415 from Fastify.
    if (request.method !== 'DELETE' && type !== 'application/json') {
      throw new HttpError(415, 'Send the request body as JSON (Content-Type: application/json).');
    }
  });

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('cache-control', 'no-store');
    // Stryker disable next-line ConditionalExpression: with the default delay of 0 the mutant waits a zero-millisecond timer before sending, which no answer shows; a positive delay is tested (tests/api/).
    // Stryker disable next-line EqualityOperator: as above, a zero-millisecond wait before an answer changes none.
    if (config.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.delayMs));
    return payload;
  });

  app.setErrorHandler(errorAnswers(log, config.bodyLimitBytes));

  await collectOpenApi(app);
  answerUnknownPaths(app);
  const answerOtherMethods = recordMethods(app);
  for (const routes of [sessionRoutes, campaignRoutes, profileRoutes, reportRoutes, openApiRoutes]) {
    await app.register(routes, context);
  }
  answerOtherMethods();

  // Expired and idle sessions are deleted at sign-in (the user's own) and swept here (everyone's), by one
  // instance at a time when several share a PostgreSQL database (./pruning.ts).
  const prune = () =>
    pruneInOneInstance(db, [
      (trx) => accounts.sessions.prune(trx),
      (trx) => pruneReports(trx, config.reports, now),
    ]).catch((error: unknown) =>
      log.error('[demo-api] pruning sessions and reports failed:', loggable(error)),
    );
  await prune();
  const timer = setInterval(prune, PRUNE_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
};
