/** `/api/profile`: the signed-in user's profile (GET) and its display name (PATCH), over ../accounts.ts. */

import { displayNameForm } from '../../core/forms.ts';
import { publicUser } from '../accounts.ts';
import * as schemas from '../schemas.ts';
import { type RoutePlugin, sessionCookie } from './context.ts';

export const profileRoutes: RoutePlugin = async (app, { accounts, config }) => {
  const cookie = sessionCookie(accounts, config.secureCookie);

  app.get('/profile', { schema: { response: schemas.profileResponse } }, async (request) => {
    return { profile: publicUser(await cookie.requireUser(request)) };
  });

  app.patch(
    '/profile',
    {
      schema: { body: schemas.profileUpdateBody, response: schemas.profileResponse },
      config: { form: displayNameForm },
    },
    async (request) => {
      const updated = await accounts.saveProfile(cookie.read(request), request.body.displayName);
      return { profile: publicUser(updated) };
    },
  );
};
