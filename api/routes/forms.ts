/**
 * The HTML forms' routes, for a visitor whose JavaScript has not run (yet, or at all): `POST /login`,
 * `POST /logout` and `POST /profile`, each `application/x-www-form-urlencoded` as a browser posts a form. They
 * are the second adapter over ../accounts.ts, whose functions the JSON routes (`/api/session`, `/api/profile`)
 * call too: the same origin check (a cross-site post is refused before anything is read or set), the same rate
 * limits, password check and session rotation. Success is a `303 See Other`; a failed sign-in answers the
 * prerendered `/login` again, with the message in its alert region and the email filled in, and the status that
 * says what happened (400, 401, 403, 415, 429 with Retry-After). Reading a form and the failure pages: ../forms.ts.
 *
 * Registered at the root (no prefix), beside the API plugin rather than inside it (its parsers and errors are
 * JSON's), by the production server (server/routes/api.ts) and by the API app that `vite dev` and
 * `vite preview` route these paths into (../app.ts, build/devEndpoints.ts).
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyError, FastifyPluginAsync, FastifyReply } from 'fastify';
import type { FormState } from '../../core/formState.ts';
import { formErrors, signInForm } from '../../core/forms.ts';
import { DEFAULT_RETURN_TO, RETURN_TO_PARAM, safeReturnTo } from '../../core/returnTo.ts';
import { DISPLAY_NAME_INPUT_MAX } from '../accountRules.ts';
import { type Accounts, EMAIL_MAX } from '../accounts.ts';
import { limitKey } from '../clientAddress.ts';
import { HttpError } from '../errors.ts';
import {
  FORM_PATHS,
  FORM_TYPE,
  type FormFields,
  fillLoginTemplate,
  parseFormBody,
  plainFailure,
  SIGN_UP_QUERY,
} from '../forms.ts';
import { loggable, loggablePath } from '../logSafe.ts';
import { sessionCookie } from './context.ts';

export interface FormsPluginOptions {
  accounts: Accounts;
  /** The body limit of the form routes (bytes). */
  bodyLimitBytes: number;
  /**
   * The failure template of `/login` (the prerendered page with FORM_PLACEHOLDERS in it), or undefined when
   * there is no build (`vite dev`): the failure is then a plain page with the message and a link back.
   */
  loginTemplate: () => Promise<string | undefined>;
  /** The same for the sign-up mode of `/login` (`?mode=signup`); undefined: the plain page. */
  signUpTemplate?: () => Promise<string | undefined>;
  log?: Pick<Console, 'error'>;
}

export const formsPlugin: FastifyPluginAsync<FormsPluginOptions> = async (app, options) => {
  const { accounts, bodyLimitBytes } = options;
  const log = options.log ?? console;
  if (!app.hasRequestDecorator('cookies')) await app.register(fastifyCookie);

  // Only the encoding a browser's form sends without `enctype`: these routes take nothing else.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    FORM_TYPE,
    { parseAs: 'string', bodyLimit: bodyLimitBytes },
    (_request, body, done) => done(null, parseFormBody(body as string)),
  );

  // Secure exactly when the cookie's name says so (`__Host-` needs it): the same cookie as the JSON routes'.
  const cookie = sessionCookie(accounts, accounts.cookieName.startsWith('__Host-'));
  const seeOther = (reply: FastifyReply, location: string) =>
    reply.code(303).header('location', location).header('cache-control', 'no-store').send();

  // Before the body is read: a cross-site post is refused whole, and a body of another kind is never parsed.
  app.addHook('onRequest', async (request) => {
    accounts.checkOrigin(request);
    const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== FORM_TYPE) throw new HttpError(415, `Send the form as ${FORM_TYPE}.`);
  });

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const known = error instanceof HttpError;
    const status = known ? error.statusCode : (error.statusCode ?? 500);
    if (status >= 500)
      log.error(`[forms] ${request.method} ${loggablePath(request.url)} failed:`, loggable(error));
    const message = known
      ? error.message
      : status === 413
        ? 'The form is too large to send.'
        : status >= 500
          ? 'Something went wrong on our side. Please try again.'
          : 'The form could not be read. Please try again.';
    reply.code(status).header('cache-control', 'no-store');
    if (known) reply.headers(error.headers);
    const path = request.routeOptions.url;
    if (path === FORM_PATHS.login || path === `${FORM_PATHS.login}/`) {
      const fields = (request.body ?? {}) as FormFields;
      // What was typed comes back, never the password; an address longer than any real one is not echoed.
      const email = typeof fields.email === 'string' && fields.email.length <= EMAIL_MAX ? fields.email : '';
      const field = known && error.field ? { field: error.field } : {};
      if (isSignUp(request.query)) {
        const displayName =
          typeof fields.displayName === 'string' && fields.displayName.length <= DISPLAY_NAME_INPUT_MAX
            ? fields.displayName
            : '';
        const state: FormState = { form: 'signup', error: message, email, displayName, ...field };
        const template = await options.signUpTemplate?.();
        return reply
          .type('text/html; charset=utf-8')
          .send(template ? fillLoginTemplate(template, state) : plainFailure(state, SIGN_UP_BACK));
      }
      const state: FormState = { form: 'login', error: message, email };
      const template = await options.loginTemplate();
      return reply
        .type('text/html; charset=utf-8')
        .send(template ? fillLoginTemplate(template, state) : plainFailure(state));
    }
    // The password and deletion forms: the message and a way back (nothing typed to keep but passwords).
    if (
      path === FORM_PATHS.password ||
      path === FORM_PATHS.deleteAccount ||
      (path?.startsWith(`${FORM_PATHS.profile}/`) && path.length > FORM_PATHS.profile.length + 1)
    ) {
      reply.type('text/html; charset=utf-8');
      return reply.send(
        plainFailure(
          { error: message },
          { href: FORM_PATHS.profile, label: 'Back to your profile', title: 'Your profile' },
        ),
      );
    }
    return reply.type('text/plain; charset=utf-8').send(message);
  });

  // Each form's page exists with and without a trailing slash (`/login/` is the prerendered page's folder), so
  // each path takes the post both ways.
  const bothWays = (path: string) => [path, `${path}/`];

  for (const url of bothWays(FORM_PATHS.login)) {
    app.post<{ Body: FormFields; Querystring: Record<string, string | string[] | undefined> }>(
      url,
      { bodyLimit: bodyLimitBytes },
      async (request, reply) => {
        const fields = request.body ?? {};
        const given = {
          address: limitKey(request.ip),
          previousToken: cookie.read(request),
        };
        // The sign-up mode of the page posts to its own URL too: `?mode=signup` says which form it is.
        const signUp = isSignUp(request.query);
        if (!signUp) {
          // The sign-in form's one schema and messages (core/forms.ts), as the JSON route and the page check them.
          const [refused] = Object.values(
            formErrors(signInForm, { email: fields.email, password: fields.password }),
          );
          if (refused) throw new HttpError(400, refused);
        }
        const { token } = signUp
          ? await accounts.signUp({
              email: fields.email,
              displayName: fields.displayName,
              password: fields.password,
              ...given,
            })
          : await accounts.signIn({ email: fields.email, password: fields.password, ...given });
        cookie.set(reply, token, accounts.sessionSeconds);
        const requested = request.query[RETURN_TO_PARAM];
        return seeOther(reply, safeReturnTo(typeof requested === 'string' ? requested : DEFAULT_RETURN_TO));
      },
    );
  }

  for (const url of bothWays(FORM_PATHS.logout)) {
    app.post(url, { bodyLimit: bodyLimitBytes }, async (request, reply) => {
      await accounts.signOut(cookie.read(request));
      cookie.set(reply, '', 0);
      return seeOther(reply, FORM_PATHS.login);
    });
  }

  for (const url of bothWays(FORM_PATHS.profile)) {
    app.post<{ Body: FormFields }>(url, { bodyLimit: bodyLimitBytes }, async (request, reply) => {
      await accounts.saveProfile(cookie.read(request), request.body?.displayName);
      return seeOther(reply, FORM_PATHS.profile);
    });
  }

  for (const url of bothWays(FORM_PATHS.password)) {
    app.post<{ Body: FormFields }>(url, { bodyLimit: bodyLimitBytes }, async (request, reply) => {
      await accounts.changePassword({
        token: cookie.read(request),
        currentPassword: request.body?.currentPassword,
        newPassword: request.body?.newPassword,
        address: limitKey(request.ip),
      });
      return seeOther(reply, `${FORM_PATHS.profile}?password=changed`);
    });
  }

  for (const url of bothWays(FORM_PATHS.deleteAccount)) {
    app.post<{ Body: FormFields }>(url, { bodyLimit: bodyLimitBytes }, async (request, reply) => {
      await accounts.deleteAccount({
        token: cookie.read(request),
        password: request.body?.password,
        address: limitKey(request.ip),
      });
      cookie.set(reply, '', 0);
      return seeOther(reply, '/');
    });
  }
};

const SIGN_UP_BACK = {
  href: `${FORM_PATHS.login}?${SIGN_UP_QUERY}`,
  label: 'Back to sign up',
  title: 'Create an account',
};

function isSignUp(query: unknown): boolean {
  return (query as Record<string, unknown> | undefined)?.mode === 'signup';
}
