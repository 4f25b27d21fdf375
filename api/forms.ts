/**
 * The HTML forms of the app, for a visitor whose JavaScript has not run (yet, or at all): `POST /login`,
 * `POST /logout` and `POST /profile`, each `application/x-www-form-urlencoded` as a browser posts a form. They
 * are the second adapter over api/accounts.ts, whose functions the JSON routes (`/api/session`, `/api/profile`)
 * call too: the same origin check (a cross-site post is refused before anything is read or set), the same rate
 * limits, password check and session rotation. Success is a `303 See Other`; a failed sign-in answers the
 * prerendered `/login` again, with the message in its alert region and the email filled in, and the status that
 * says what happened (400, 401, 403, 415, 429 with Retry-After).
 *
 * Registered at the root (no prefix) by the production server (server/routes/api.ts) and by the API app
 * that `vite dev` and `vite preview` route these paths into (api/app.ts, build/devEndpoints.ts).
 */
import fastifyCookie from '@fastify/cookie';
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { FORM_PLACEHOLDERS, FORM_STATE_ID, type FormState } from '../core/formState.ts';
import { serializeInlineJson } from '../core/payload.ts';
import { DEFAULT_RETURN_TO, RETURN_TO_PARAM, safeReturnTo } from '../core/returnTo.ts';
import { type Accounts, EMAIL_MAX } from './accounts.ts';
import { limitKey } from './clientAddress.ts';
import { HttpError } from './errors.ts';
import { loggable, loggablePath } from './logSafe.ts';

/** The paths a form posts to (the page it is on, for sign-in: its `redirect` query comes along). */
export const FORM_PATHS = { login: '/login', logout: '/logout', profile: '/profile' } as const;

const FORM_TYPE = 'application/x-www-form-urlencoded';

export interface FormsPluginOptions {
  accounts: Accounts;
  /** The body limit of the form routes (bytes). */
  bodyLimitBytes: number;
  /**
   * The failure template of `/login` (the prerendered page with FORM_PLACEHOLDERS in it), or undefined when
   * there is no build (`vite dev`): the failure is then a plain page with the message and a link back.
   */
  loginTemplate: () => Promise<string | undefined>;
  log?: Pick<Console, 'error'>;
}

/** The form fields, first value of each; a repeated field counts once, as a browser's form sends it. */
export type FormFields = Record<string, string>;

export function parseFormBody(body: string): FormFields {
  const fields = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(body)) {
    if (!fields.has(name)) fields.set(name, value);
  }
  // fromEntries defines own properties: a field called `__proto__` is a field, never the prototype.
  return Object.fromEntries(fields);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The failure page: the template with the message and the email in place (escaped), and the same state as
 * JSON for the app, which hydrates the page from it. Exported for tests.
 */
export function fillLoginTemplate(template: string, state: FormState): string {
  const block = `<script type="application/json" id="${FORM_STATE_ID}">${serializeInlineJson(state)}</script>`;
  // Function replacers: a string replacement would read `$&`, `$'` and `` $` `` in the email as patterns and paste
  // parts of the page into it.
  return template
    .replaceAll(FORM_PLACEHOLDERS.error, () => escapeHtml(state.error))
    .replaceAll(FORM_PLACEHOLDERS.email, () => escapeHtml(state.email))
    .replace('</body>', () => `${block}</body>`);
}

function plainFailure(state: FormState): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body><p role="alert">${escapeHtml(state.error)}</p><p><a href="${FORM_PATHS.login}">Back to sign in</a></p></body></html>`;
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

  const readCookie = (request: FastifyRequest) => request.cookies[accounts.cookieName];
  const setSessionCookie = (reply: FastifyReply, token: string, maxAgeSeconds: number) =>
    reply.setCookie(accounts.cookieName, token, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: accounts.cookieName.startsWith('__Host-'),
      maxAge: maxAgeSeconds,
    });
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
      const state: FormState = { form: 'login', error: message, email };
      const template = await options.loginTemplate();
      return reply
        .type('text/html; charset=utf-8')
        .send(template ? fillLoginTemplate(template, state) : plainFailure(state));
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
        const { token } = await accounts.signIn({
          email: fields.email,
          password: fields.password,
          address: limitKey(request.ip),
          previousToken: readCookie(request),
        });
        setSessionCookie(reply, token, accounts.sessionSeconds);
        const requested = request.query[RETURN_TO_PARAM];
        return seeOther(reply, safeReturnTo(typeof requested === 'string' ? requested : DEFAULT_RETURN_TO));
      },
    );
  }

  for (const url of bothWays(FORM_PATHS.logout)) {
    app.post(url, { bodyLimit: bodyLimitBytes }, async (request, reply) => {
      await accounts.signOut(readCookie(request));
      setSessionCookie(reply, '', 0);
      return seeOther(reply, FORM_PATHS.login);
    });
  }

  for (const url of bothWays(FORM_PATHS.profile)) {
    app.post<{ Body: FormFields }>(url, { bodyLimit: bodyLimitBytes }, async (request, reply) => {
      await accounts.saveProfile(readCookie(request), request.body?.displayName);
      return seeOther(reply, FORM_PATHS.profile);
    });
  }
};

/**
 * The app shell (`200.html`, what a page that is not prerendered gets, `/profile` say) for a signed-in visitor
 * whose JavaScript does not run: its `<noscript>` notice gains the profile form and the sign-out form, which
 * post to the routes above. Undefined for anyone not signed in (the shell as built). A browser running scripts
 * never shows a `<noscript>`, so the app's own page is unchanged.
 */
export async function shellForSignedIn(
  shell: string,
  accounts: Accounts,
  cookieHeader: string | undefined,
): Promise<string | undefined> {
  if (!cookieHeader || !shell.includes('</noscript>')) return undefined;
  const user = await accounts.sessions.user(fastifyCookie.parse(cookieHeader)[accounts.cookieName]);
  if (!user) return undefined;
  const forms = [
    `<div class="boot-forms">`,
    `<p>Signed in as ${escapeHtml(user.email)}.</p>`,
    `<form method="post" action="${FORM_PATHS.profile}">`,
    `<label for="noscript-name">Display name</label>`,
    `<input id="noscript-name" name="displayName" autocomplete="nickname" maxlength="120" value="${escapeHtml(user.displayName)}">`,
    `<button type="submit">Save changes</button>`,
    `</form>`,
    `<form method="post" action="${FORM_PATHS.logout}"><button type="submit">Sign out</button></form>`,
    `</div>`,
  ].join('');
  return shell.replace('</noscript>', () => `${forms}</noscript>`);
}
