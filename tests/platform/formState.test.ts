// @vitest-environment happy-dom
// The login form's start after a failed post (src/platform/formState.ts): the server's answer in the page's JSON
// block is read once and only by the form it is for; the build's renderer can provide a state instead; a later
// visit starts empty; and a field's value typed before hydration is what the form starts from.
// The module keeps what it read for the page's life, so each test imports a fresh copy.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FORM_STATE_ID, type FormState } from '../../core/formState';

type FormStateModule = typeof import('../../src/platform/formState');

const failure: FormState = { form: 'login', error: 'Wrong email or password.', email: 'demo@example.com' };

/** What api/forms.ts answers a failed post with: the state in a JSON block. */
function serverAnswered(text: string) {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = FORM_STATE_ID;
  block.textContent = text;
  document.body.append(block);
  return block;
}

let formState: FormStateModule;

beforeEach(async () => {
  document.body.innerHTML = '';
  vi.resetModules();
  formState = await import('../../src/platform/formState');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('initialFormState', () => {
  it('is what the server answered the failed post with', () => {
    serverAnswered(JSON.stringify(failure));
    expect(formState.initialFormState('login')).toEqual(failure);
  });

  it('is nothing for another form than the one that failed', () => {
    serverAnswered(JSON.stringify(failure));
    // Only the login form posts today; a second form must not start with the login's message.
    expect(formState.initialFormState('signup' as FormState['form'])).toBeNull();
  });

  it('is nothing on a page the server sent without a failure', () => {
    expect(formState.initialFormState('login')).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['not JSON', '{"form": "login",'],
    ['JSON that is no form state', JSON.stringify({ form: 'login', error: 42 })],
  ])('is nothing when the block is %s', (_, text) => {
    serverAnswered(text);
    expect(formState.initialFormState('login')).toBeNull();
  });

  it('reads the document once: what the page changes later is not the server answer', () => {
    const block = serverAnswered(JSON.stringify(failure));
    expect(formState.initialFormState('login')).toEqual(failure);
    block.textContent = JSON.stringify({ ...failure, error: 'Changed by a script' });
    expect(formState.initialFormState('login')).toEqual(failure);
  });

  it('keeps having nothing when the first read found nothing', () => {
    expect(formState.initialFormState('login')).toBeNull();
    serverAnswered(JSON.stringify(failure));
    expect(formState.initialFormState('login')).toBeNull();
  });

  it('keeps having nothing when the first read found a damaged block, though a script mends it later', () => {
    const block = serverAnswered('{"form": "login",');
    expect(formState.initialFormState('login')).toBeNull();
    block.textContent = JSON.stringify(failure);
    expect(formState.initialFormState('login')).toBeNull();
  });

  it('is nothing on the server, where there is no document', () => {
    vi.stubGlobal('document', undefined);
    expect(formState.initialFormState('login')).toBeNull();
  });
});

describe('forgetFormState', () => {
  it('makes a later visit to the form start empty, though the block is still in the page', () => {
    serverAnswered(JSON.stringify(failure));
    expect(formState.initialFormState('login')).toEqual(failure);
    formState.forgetFormState();
    expect(formState.initialFormState('login')).toBeNull();
  });
});

describe('provideFormState', () => {
  it('renders the failure template with the state the build gives, whatever the document holds', () => {
    serverAnswered(JSON.stringify(failure));
    const template: FormState = { form: 'login', error: '@@form-error@@', email: '@@form-email@@' };
    formState.provideFormState(template);
    expect(formState.initialFormState('login')).toEqual(template);
  });

  it('renders without a state when given null, though the document holds one', () => {
    serverAnswered(JSON.stringify(failure));
    formState.provideFormState(null);
    expect(formState.initialFormState('login')).toBeNull();
  });

  it('goes back to the document once the build passes undefined', () => {
    serverAnswered(JSON.stringify(failure));
    formState.provideFormState({ ...failure, error: 'From the build' });
    formState.provideFormState(undefined);
    expect(formState.initialFormState('login')).toEqual(failure);
  });
});

describe('typedBeforeHydration', () => {
  it('is what the visitor typed into the prerendered field before the app started', () => {
    document.body.innerHTML = '<input id="login-email" type="email">';
    const field = document.getElementById('login-email') as HTMLInputElement;
    field.value = 'typed@example.com';
    expect(formState.typedBeforeHydration('login-email')).toBe('typed@example.com');
  });

  it('is empty when the field is not on the page yet (a page rendered after a navigation)', () => {
    expect(formState.typedBeforeHydration('login-email')).toBe('');
  });

  it('is empty when the id names something that is not an input', () => {
    document.body.innerHTML = '<div id="login-email">not a field</div>';
    expect(formState.typedBeforeHydration('login-email')).toBe('');
  });

  it('is empty on the server, where there is no document', () => {
    vi.stubGlobal('document', undefined);
    expect(formState.typedBeforeHydration('login-email')).toBe('');
  });
});
