/**
 * What the server tells a page it answers a form post with (api/forms.ts): the failure message and what was
 * typed (never a password). It travels in a `<script type="application/json">` block, data that is never run
 * (the CSP allows no inline script but by hash), and the page reads it when it hydrates, so its first render
 * is the markup the server sent.
 */

export interface FormState {
  /** Which form failed: the sign-in or the sign-up mode of `/login`. */
  readonly form: 'login' | 'signup';
  readonly error: string;
  readonly email: string;
  /** What was typed as the display name (sign-up). */
  readonly displayName?: string;
  /** The field the message is about, when it is about one: the page shows it under that field. */
  readonly field?: string;
}

/** The id of the JSON block. */
// Stryker disable next-line StringLiteral: The id is shared by its writer (the server's form routes, api/forms.ts) and its reader (src/main.tsx); an empty id breaks reading the block, which tests/api/forms/ and e2e/forms.spec.ts catch, but the machines' mutation run does not include them (they start the server or a browser).
export const FORM_STATE_ID = '__CAMPAIGN_FORM__';

/**
 * What the build renders in place of the message and the email in the failure template of `/login`
 * (`dist/.forms/login.html`); the server replaces them, HTML-escaped. Plain ASCII that React's escaping
 * leaves alone.
 */
export const FORM_PLACEHOLDERS = {
  error: '@@form-error@@',
  email: '@@form-email@@',
  displayName: '@@form-display-name@@',
  field: '@@form-field@@',
} as const;

/** The build's path of the failure template of a form page (a dotfile folder: never served as a file). */
// Stryker disable next-line StringLiteral: The folder is shared by its writer (build/prerenderPages.ts) and its reader (api/forms.ts); an empty name writes the template at dist/login.html, which tests/api/forms/ and e2e/forms.spec.ts catch through the build, outside the machines' mutation run.
export const FORM_TEMPLATE_DIR = '.forms';

export function parseFormState(raw: unknown): FormState | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { form, error, email, displayName, field } = raw as Record<string, unknown>;
  if ((form !== 'login' && form !== 'signup') || typeof error !== 'string' || typeof email !== 'string')
    return null;
  return {
    form,
    error,
    email,
    ...(typeof displayName === 'string' ? { displayName } : {}),
    ...(typeof field === 'string' && field !== '' ? { field } : {}),
  };
}
