/**
 * The form state a server answer carries to the page (core/formState.ts): only a well-formed failure of a known
 * form is taken; anything else is no state, so a page never renders from a block it cannot trust.
 */
import { describe, expect, it } from 'vitest';
import { parseFormState } from '../../core/formState';

describe('parseFormState', () => {
  it('takes a failed sign-in: the form, its message and the email typed', () => {
    expect(
      parseFormState({ form: 'login', error: 'Incorrect email or password', email: 'a@b.c', extra: 1 }),
    ).toEqual({
      form: 'login',
      error: 'Incorrect email or password',
      email: 'a@b.c',
    });
    expect(parseFormState({ form: 'login', error: '', email: '' })).toEqual({
      form: 'login',
      error: '',
      email: '',
    });
  });

  it.each([
    ['nothing', undefined],
    ['null', null],
    ['a string', '{"form":"login"}'],
    ['a number', 42],
    ['another form', { form: 'profile', error: 'x', email: 'a@b.c' }],
    ['no form', { error: 'x', email: 'a@b.c' }],
    ['a message that is not text', { form: 'login', error: 1, email: 'a@b.c' }],
    ['no message', { form: 'login', email: 'a@b.c' }],
    ['an email that is not text', { form: 'login', error: 'x', email: ['a@b.c'] }],
    ['no email', { form: 'login', error: 'x' }],
  ])('refuses %s', (_, raw) => {
    expect(parseFormState(raw)).toBeNull();
  });
});
