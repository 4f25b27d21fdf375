/** `/api/profile`: the signed-in user's profile (GET) and its display name (PATCH), over ../accounts.ts. */
import type { FastifyPluginAsync } from 'fastify';
import { publicUser } from '../accounts.ts';
import * as schemas from '../schemas.ts';
import type { ProfileResponse, ProfileUpdateRequest } from '../types.ts';
import { type RouteContext, sessionCookie } from './context.ts';

const nameRequired = 'Display name is required and must be text.';

export const profileRoutes: FastifyPluginAsync<RouteContext> = async (app, { accounts, config }) => {
  const cookie = sessionCookie(accounts, config.secureCookie);

  app.get(
    '/profile',
    { schema: { response: schemas.profileResponse } },
    async (request): Promise<ProfileResponse> => {
      return { profile: publicUser(await cookie.requireUser(request)) };
    },
  );

  app.patch<{ Body: ProfileUpdateRequest }>(
    '/profile',
    {
      schema: { body: schemas.profileUpdateBody, response: schemas.profileResponse },
      config: { messages: { displayName: { required: nameRequired, type: nameRequired } } },
    },
    async (request): Promise<ProfileResponse> => {
      const updated = await accounts.saveProfile(cookie.read(request), request.body.displayName);
      return { profile: publicUser(updated) };
    },
  );
};
