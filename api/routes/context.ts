import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { type Accounts, SIGN_IN_FIRST } from '../accounts.ts';
import type { ApiConfig } from '../config.ts';
import type { Database, User } from '../database/schema.ts';
import { HttpError } from '../errors.ts';
import type { ApiLog } from '../logSafe.ts';

/** What every route plugin under /api is registered with (../plugin.ts makes it once). */
export interface RouteContext {
  db: Kysely<Database>;
  config: ApiConfig;
  accounts: Accounts;
  now: () => number;
  log: ApiLog;
}

/**
 * A resource's routes: a plugin registered with the RouteContext, whose routes take the types of their request
 * (body, query, params) and of their answers from the JSON Schemas they declare (../schemas.ts), through
 * json-schema-to-ts. A route states no type of its own: its schema is the type.
 */
export type RoutePlugin = FastifyPluginAsyncJsonSchemaToTs<{ Options: RouteContext }>;

/**
 * The session cookie as the routes read and write it: one definition for the JSON routes and the form routes
 * (./forms.ts), so both sign in with the same cookie. `secure` follows the configuration (HTTPS sites only).
 */
export function sessionCookie(accounts: Accounts, secure: boolean) {
  const read = (request: FastifyRequest): string | undefined => request.cookies[accounts.cookieName];
  return {
    read,
    set: (reply: FastifyReply, token: string, maxAgeSeconds: number) =>
      reply.setCookie(accounts.cookieName, token, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure,
        maxAge: maxAgeSeconds,
      }),
    /** The signed-in user, or a 401. */
    requireUser: async (request: FastifyRequest): Promise<User> => {
      const user = await accounts.sessions.user(read(request));
      if (!user) throw new HttpError(401, SIGN_IN_FIRST);
      return user;
    },
  };
}
