// @vitest-environment node
// The forms' schemas (core/forms.ts): the page's check (formErrors) says what Ajv, as the API runs it, says of the
// same values, field by field and with the same message; and the display name's pattern is its length rule.
import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayNameForm, type FormDefinition, formErrors, signInForm } from '../../core/forms';
import { DISPLAY_NAME_MAX, displayNameLength } from '../../core/limits';

/** The API's Ajv (api/plugin.ts), reporting every field: the first error of each is what the API would word. */
const ajv = new Ajv({ coerceTypes: false, removeAdditional: false, allErrors: true });

function ajvErrors(form: FormDefinition, values: Record<string, unknown>): Record<string, string> {
  const validate = ajv.compile(form.schema);
  if (validate(values)) return {};
  const found: Record<string, string> = {};
  for (const error of validate.errors ?? []) {
    const field =
      error.keyword === 'required' ? String(error.params.missingProperty) : error.instancePath.slice(1);
    const messages = form.messages[field] ?? {};
    found[field] ??= messages[error.keyword as keyof typeof messages] ?? messages['*'] ?? error.keyword;
  }
  return found;
}

/** Text with what trims and counts differently: spaces of several kinds, line breaks, emoji, lone surrogates. */
const text = fc
  .array(
    fc.oneof(
      fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u2028', '\ufeff', '@', 'x', '🌱', '\u0301', '\ud800'),
      fc.string({ unit: 'binary', maxLength: 4 }),
    ),
    { maxLength: 80 },
  )
  .map((parts) => parts.join(''));
const long = fc.integer({ min: 0, max: 1100 }).map((length) => ' '.repeat(length % 3) + 'y'.repeat(length));
const value = fc.oneof(text, long, fc.constant(undefined), fc.integer(), fc.constant(null), fc.boolean());

function valuesOf(fields: readonly string[]) {
  return fc
    .tuple(...fields.map(() => value))
    .map((picked) =>
      Object.fromEntries(
        picked.flatMap((picked, index) => (picked === undefined ? [] : [[fields[index] as string, picked]])),
      ),
    );
}

describe('the forms (core/forms.ts)', () => {
  it.each([
    ['sign-in', signInForm as FormDefinition],
    ['display name', displayNameForm as FormDefinition],
  ])(
    'the %s form: the page’s check and the API’s Ajv refuse the same fields with the same message',
    (_, form) => {
      fc.assert(
        fc.property(valuesOf(Object.keys(form.schema.properties)), (values) => {
          expect(formErrors(form, values)).toEqual(ajvErrors(form, values));
        }),
        { numRuns: 400 },
      );
    },
  );

  it('gives every keyword a field’s schema can fail a message', () => {
    for (const form of [signInForm, displayNameForm] as FormDefinition[]) {
      for (const [field, schema] of Object.entries(form.schema.properties)) {
        const keywords = [
          'required',
          'type',
          'maxLength',
          ...Object.keys(schema).filter((k) => k !== 'type'),
        ];
        for (const keyword of new Set(keywords)) {
          const messages = form.messages[field] ?? {};
          expect(messages[keyword as keyof typeof messages] ?? messages['*'], `${field} ${keyword}`).toMatch(
            /\.$/,
          );
        }
      }
    }
  });

  it('says what the sign-in page said: an empty email, one without @, an empty password', () => {
    expect(formErrors(signInForm, { email: '', password: '' })).toEqual({
      email: 'Enter your email address.',
      password: 'Enter your password.',
    });
    expect(formErrors(signInForm, { email: 'demo', password: 'x' })).toEqual({
      email: 'Enter an email address like name@example.com.',
    });
    expect(formErrors(signInForm, { email: 'demo@example.com', password: 'x' })).toEqual({});
  });

  it('holds a display name to 1 to 60 characters once trimmed, counted in code points, as the API does', () => {
    const pattern = new RegExp(displayNameForm.schema.properties.displayName.pattern, 'u');
    fc.assert(
      fc.property(fc.oneof(text, long), (name) => {
        const length = displayNameLength(name);
        expect(pattern.test(name)).toBe(length >= 1 && length <= DISPLAY_NAME_MAX);
      }),
      { numRuns: 1000 },
    );
    expect(pattern.test(` ${'🌱'.repeat(60)}\t`)).toBe(true);
    expect(pattern.test('🌱'.repeat(61))).toBe(false);
    expect(pattern.test(' \u00a0 ')).toBe(false);
  });
});
