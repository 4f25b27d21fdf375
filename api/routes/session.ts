/**
 * `/api/session`: who is signed in (GET), signing in (POST) and out (DELETE); `POST /api/account`: signing up,
 * signed in at once; `GET /api/demo-accounts`. Over ../accounts.ts, as the HTML forms (./forms.ts) are.
 */
import { signInForm } from '../../core/forms.ts';
import { emailKey } from '../accountRules.ts';
import { publicUser } from '../accounts.ts';
import { limitKey } from '../clientAddress.ts';
import { publishedAccounts } from '../database/demoData.ts';
import type { FieldMessages } from '../errors.ts';
import seed from '../fixtures/seed.json' with { type: 'json' };
import * as schemas from '../schemas.ts';
import type { DemoAccountsResponse } from '../types.ts';
import { type RoutePlugin, sessionCookie } from './context.ts';

/** The account forms' fields (./profile.ts's too), by the message a missing or oversized one gets. */
export const accountMessages: FieldMessages = {
  email: { '*': 'Enter an email address like name@example.com.' },
  displayName: { '*': 'Display name is required and must be text.' },
  password: { '*': 'Enter a password of at most 128 characters.' },
  currentPassword: { '*': 'Enter your current password.' },
  newPassword: { '*': 'Enter a new password of at most 128 characters.' },
};

export const sessionRoutes: RoutePlugin = async (app, { accounts, config, db }) => {
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

  app.post(
    '/account',
    {
      schema: { body: schemas.signUpBody, response: schemas.signUpResponse },
      config: { messages: accountMessages },
    },
    async (request, reply) => {
      const { user, token } = await accounts.signUp({
        email: request.body.email,
        displayName: request.body.displayName,
        password: request.body.password,
        address: limitKey(request.ip),
        previousToken: cookie.read(request),
      });
      cookie.set(reply, token, config.sessions.absoluteSeconds);
      reply.code(201);
      return { user: publicUser(user) };
    },
  );

  // The demo accounts this database has, for the sign-in page to name (the build prerenders it from this). An
  // argon2id verify per candidate: kept for a minute, so asking often costs nothing.
  let demo: { at: number; answer: Promise<DemoAccountsResponse> } | undefined;
  app.get('/demo-accounts', { schema: { response: schemas.demoAccountsResponse } }, async () => {
    const at = Date.now();
    if (!demo || at - demo.at > 60_000) {
      const answer = publishedAccounts(db).then((accounts) => ({
        accounts: accounts.flatMap((account) => {
          const user = seed.users.find((u) => emailKey(u.email) === emailKey(account.email));
          return user ? [{ email: account.email, password: user.password }] : [];
        }),
      }));
      demo = { at, answer };
      answer.catch(() => {
        demo = undefined;
      });
    }
    return demo.answer;
  });

  app.delete('/session', { schema: { response: schemas.noContent } }, async (request, reply) => {
    await accounts.signOut(cookie.read(request));
    cookie.set(reply, '', 0);
    return reply.code(204).send(null);
  });
};
