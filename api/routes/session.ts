/** `/api/session`: who is signed in (GET), signing in (POST) and out (DELETE), over ../accounts.ts. */
import { signInForm } from '../../core/forms.ts';
import { publicUser } from '../accounts.ts';
import { limitKey } from '../clientAddress.ts';
import * as schemas from '../schemas.ts';
import { type RoutePlugin, sessionCookie } from './context.ts';

export const sessionRoutes: RoutePlugin = async (app, { accounts, config }) => {
  const cookie = sessionCookie(accounts, config.secureCookie);

  app.get('/session', { schema: { response: schemas.sessionResponse } }, async (request) => {
    const user = await accounts.sessions.user(cookie.read(request));
    return { user: user ? publicUser(user) : null };
  });

  app.post(
    '/session',
    {
      schema: { body: schemas.signInBody, response: schemas.signInResponse },
      config: { form: signInForm },
    },
    async (request, reply) => {
      const { user, token } = await accounts.signIn({
        email: request.body.email,
        password: request.body.password,
        address: limitKey(request.ip),
        previousToken: cookie.read(request),
      });
      cookie.set(reply, token, config.sessions.absoluteSeconds);
      return { user: publicUser(user) };
    },
  );

  app.delete('/session', { schema: { response: schemas.noContent } }, async (request, reply) => {
    await accounts.signOut(cookie.read(request));
    cookie.set(reply, '', 0);
    return reply.code(204).send(null);
  });
};
