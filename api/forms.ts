/**
 * The HTML forms of the app, for a visitor whose JavaScript has not run (yet, or at all): the paths they post to,
 * how a posted form is read, and the pages a failure answers with. The routes themselves (`POST /login`,
 * `/logout`, `/profile`) are ./routes/forms.ts; the shell's forms for a signed-in visitor are below.
 */
import fastifyCookie from '@fastify/cookie';
import { FORM_PLACEHOLDERS, FORM_STATE_ID, type FormState } from '../core/formState.ts';
import { serializeInlineJson } from '../core/payload.ts';
import type { Accounts } from './accounts.ts';

/** The paths a form posts to (the page it is on, for sign-in: its `redirect` query comes along). */
export const FORM_PATHS = {
  login: '/login',
  logout: '/logout',
  profile: '/profile',
  password: '/profile/password',
  deleteAccount: '/profile/delete',
} as const;

/** The query that puts `/login` in its sign-up mode (and its form's post through the sign-up). */
export const SIGN_UP_QUERY = 'mode=signup';

/** The only encoding the form routes take: what a browser's form sends without `enctype`. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';

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
    .replaceAll(FORM_PLACEHOLDERS.displayName, () => escapeHtml(state.displayName ?? ''))
    .replaceAll(FORM_PLACEHOLDERS.field, () => escapeHtml(state.field ?? ''))
    .replace('</body>', () => `${block}</body>`);
}

/** The failure page when there is no build to take the template from (`vite dev`), or for a profile form. */
export function plainFailure(
  state: Pick<FormState, 'error'>,
  back: { href: string; label: string; title: string } = SIGN_IN_BACK,
): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(back.title)}</title></head><body><p role="alert">${escapeHtml(state.error)}</p><p><a href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p></body></html>`;
}

const SIGN_IN_BACK = { href: FORM_PATHS.login, label: 'Back to sign in', title: 'Sign in' };

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
    `<form method="post" action="${FORM_PATHS.password}">`,
    `<input type="hidden" name="username" autocomplete="username" value="${escapeHtml(user.email)}">`,
    `<label for="noscript-current">Current password</label>`,
    `<input id="noscript-current" type="password" name="currentPassword" autocomplete="current-password" required>`,
    `<label for="noscript-new">New password</label>`,
    `<input id="noscript-new" type="password" name="newPassword" autocomplete="new-password" minlength="8" maxlength="128" required>`,
    `<button type="submit">Change password</button>`,
    `</form>`,
    `<form method="post" action="${FORM_PATHS.deleteAccount}">`,
    `<label for="noscript-delete">Password, to delete your account</label>`,
    `<input id="noscript-delete" type="password" name="password" autocomplete="current-password" required>`,
    `<button type="submit">Delete account</button>`,
    `</form>`,
    `<form method="post" action="${FORM_PATHS.logout}"><button type="submit">Sign out</button></form>`,
    `</div>`,
  ].join('');
  return shell.replace('</noscript>', () => `${forms}</noscript>`);
}
