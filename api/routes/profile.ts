/**
 * `/api/profile`: the signed-in user's profile (GET) and its display name (PATCH); `/api/account`: its password
 * (PUT `/api/account/password`) and its deletion (DELETE). Over ../accounts.ts, as the HTML forms are.
 */
import { displayNameForm } from '../../core/forms.ts';
import { publicUser } from '../accounts.ts';
import { limitKey } from '../clientAddress.ts';
import * as schemas from '../schemas.ts';
import { type RoutePlugin, sessionCookie } from './context.ts';
import { accountMessages } from './session.ts';

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

  app.put(
    '/account/password',
    {
      schema: { body: schemas.passwordChangeBody, response: schemas.noContent },
      config: { messages: accountMessages },
    },
    async (request, reply) => {
      await accounts.changePassword({
        token: cookie.read(request),
        currentPassword: request.body.currentPassword,
        newPassword: request.body.newPassword,
        address: limitKey(request.ip),
      });
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/account',
    {
      schema: { body: schemas.accountDeleteBody, response: schemas.noContent },
      config: { messages: accountMessages },
    },
    async (request, reply) => {
      await accounts.deleteAccount({
        token: cookie.read(request),
        password: request.body.password,
        address: limitKey(request.ip),
      });
      cookie.set(reply, '', 0);
      return reply.code(204).send(null);
    },
  );
};
