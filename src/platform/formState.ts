/**
 * The state the server answered a failed form post with (api/forms.ts, core/formState.ts): read once from
 * the page's JSON block, so the form hydrates showing what the server sent (the message, the email typed).
 */
import { FORM_STATE_ID, type FormState, parseFormState } from '../../core/formState';

/** What the build renders the failure template with (src/prerender.tsx); undefined: read the document. */
let provided: FormState | null | undefined;
let fromDocument: FormState | null | undefined;

function readDocument(): FormState | null {
  const block = typeof document === 'undefined' ? null : document.getElementById(FORM_STATE_ID);
  // Stryker disable next-line ConditionalExpression: Everything this early return lets through fails inside the `try` below and ends in the same `return null`: no block makes `block.textContent` a TypeError, and an empty block makes `JSON.parse('')` a SyntaxError. The result (null, remembered for the page's life) is the same either way; tests/platform/formState.test.ts checks both cases (no block, an empty block) and that the null is kept. The guard only says the common case (a page without a failure) without throwing.
  if (!block?.textContent) return null;
  try {
    return parseFormState(JSON.parse(block.textContent));
  } catch {
    return null;
  }
}

export function initialFormState(form: FormState['form']): FormState | null {
  if (fromDocument === undefined) fromDocument = readDocument();
  const state = provided !== undefined ? provided : fromDocument;
  return state?.form === form ? state : null;
}

/** The page has taken the state over: a later visit to the same page starts empty. */
export function forgetFormState(): void {
  fromDocument = null;
}

/** For the build's renderer only: render with this state, then (with undefined) without it. */
export function provideFormState(state: FormState | null | undefined): void {
  provided = state;
}

/**
 * What is in a field of the prerendered page right now: a visitor may have typed before the app started, and
 * React hydrates a controlled input with the value its state holds, so the state must start from the field's.
 * Empty on the server and when the page is rendered after a navigation (the field does not exist yet).
 */
export function typedBeforeHydration(id: string): string {
  if (typeof document === 'undefined') return '';
  const field = document.getElementById(id);
  return field instanceof HTMLInputElement ? field.value : '';
}
