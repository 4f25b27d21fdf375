/**
 * The app's forms, each as one JSON Schema and the message for each of its fields: the API validates the request
 * body against the schema (Ajv, api/plugin.ts) and answers a refusal with the field's message
 * (`{ message, fields: { email: '…' } }`, api/errors.ts); the page checks the same schema with `formErrors` before
 * it sends anything and shows the same message under the field. The request body's type is derived from the
 * schema (api/types.ts), so the form, the API and the types cannot drift apart.
 *
 * Pure data and one pure function: the browser, the API and the build all import it.
 */
import {
  DISPLAY_NAME_INPUT_MAX,
  DISPLAY_NAME_LENGTH_MESSAGE,
  DISPLAY_NAME_MAX,
  EMAIL_MAX,
  PASSWORD_MAX,
} from './limits.ts';

/** The keywords a form field's schema may use, in the order Ajv checks them (the first that fails is reported). */
export const FIELD_KEYWORDS = ['required', 'type', 'maxLength', 'minLength', 'pattern'] as const;
export type FieldKeyword = (typeof FIELD_KEYWORDS)[number];

/** A form field: text, bounded, maybe with a pattern (matched with Unicode semantics, as Ajv does). */
export interface FieldSchema {
  readonly type: 'string';
  readonly minLength?: number;
  readonly maxLength: number;
  readonly pattern?: string;
}

/**
 * A form: its schema (an object of text fields, every one required, nothing else accepted) and, per field, the
 * message for each keyword that can fail (`*` for any other).
 */
export interface FormDefinition<Field extends string = string> {
  readonly schema: {
    readonly type: 'object';
    readonly required: readonly Field[];
    readonly additionalProperties: false;
    readonly properties: { readonly [name in Field]: FieldSchema };
  };
  readonly messages: { readonly [name in Field]: Partial<Record<FieldKeyword | '*', string>> };
}

/** Each field's message, for the fields the schema refuses: what a page shows under them, before any request. */
export type FieldErrors<Field extends string = string> = Partial<Record<Field, string>>;

/** The first keyword of `schema` that `value` fails, as Ajv would find it; undefined when it passes. */
function failedKeyword(schema: FieldSchema, value: unknown): FieldKeyword | undefined {
  if (value === undefined) return 'required';
  if (typeof value !== 'string') return 'type';
  // Code points, as Ajv counts them (an emoji is one character).
  const length = [...value].length;
  if (length > schema.maxLength) return 'maxLength';
  if (schema.minLength !== undefined && length < schema.minLength) return 'minLength';
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return 'pattern';
  return undefined;
}

/** What the form's schema says about `values`: the message of each field it refuses (none: an empty object). */
export function formErrors<Field extends string>(
  form: FormDefinition<Field>,
  values: Readonly<Partial<Record<Field, unknown>>>,
): FieldErrors<Field> {
  const errors: FieldErrors<Field> = {};
  for (const field of Object.keys(form.schema.properties) as Field[]) {
    const keyword = failedKeyword(form.schema.properties[field], values[field]);
    if (keyword) errors[field] = form.messages[field][keyword] ?? form.messages[field]['*'];
  }
  return errors;
}

/** Sign-in (`POST /api/session`, the page `/login`). */
export const signInForm = {
  schema: {
    type: 'object',
    required: ['email', 'password'],
    additionalProperties: false,
    properties: {
      // Any text with an @: whether the address is an account's is the password check's business.
      email: { type: 'string', minLength: 1, maxLength: EMAIL_MAX, pattern: '@' },
      password: { type: 'string', minLength: 1, maxLength: PASSWORD_MAX },
    },
  },
  messages: {
    email: {
      required: 'Enter your email address.',
      type: 'Enter your email address.',
      minLength: 'Enter your email address.',
      maxLength: `Email must be at most ${EMAIL_MAX} characters.`,
      pattern: 'Enter an email address like name@example.com.',
    },
    password: {
      required: 'Enter your password.',
      type: 'Enter your password.',
      minLength: 'Enter your password.',
      maxLength: `Password must be at most ${PASSWORD_MAX} characters.`,
    },
  },
} as const satisfies FormDefinition<'email' | 'password'>;

const NAME_REQUIRED = 'Display name is required and must be text.';

/** The display name (`PATCH /api/profile`, the page `/profile`). */
export const displayNameForm = {
  schema: {
    type: 'object',
    required: ['displayName'],
    additionalProperties: false,
    properties: {
      // 1 to DISPLAY_NAME_MAX characters once trimmed: a non-space first and last character with at most
      // DISPLAY_NAME_MAX - 2 of any kind between, and any spaces around (`\s` is exactly what trim() removes).
      displayName: {
        type: 'string',
        maxLength: DISPLAY_NAME_INPUT_MAX,
        pattern: `^\\s*\\S(?:[^]{0,${DISPLAY_NAME_MAX - 2}}\\S)?\\s*$`,
      },
    },
  },
  messages: {
    displayName: {
      required: NAME_REQUIRED,
      type: NAME_REQUIRED,
      maxLength: DISPLAY_NAME_LENGTH_MESSAGE,
      pattern: DISPLAY_NAME_LENGTH_MESSAGE,
    },
  },
} as const satisfies FormDefinition<'displayName'>;
