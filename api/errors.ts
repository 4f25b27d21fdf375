import type { FastifyError } from 'fastify';
import type { ApiErrorBody } from './types.ts';

/** An answer other than success, with the message the person using the app will read. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** Per route: the message for a field that fails validation, by keyword (`*` for any). */
export type FieldMessages = Record<string, Record<string, string>>;

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
}

const PARTS: Record<string, string> = {
  body: 'The request body',
  params: 'The path',
  querystring: 'The query string',
  headers: 'The headers',
};

/** Turns a Fastify error into the status, message and headers of the one error body shape. */
export function describeError(
  error: FastifyError,
  messages: FieldMessages = {},
  bodyLimitBytes = 0,
): { status: number; body: ApiErrorBody } | undefined {
  if (error.validation) {
    const first = error.validation[0] as SchemaError | undefined;
    return { status: 400, body: { message: validationMessage(first, error.validationContext, messages) } };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, body: { message: 'The request body must be valid JSON.' } };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { message: 'The request body must be a JSON object.' } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        body: { message: `The request body must be at most ${Math.floor(bodyLimitBytes / 1024)} KiB.` },
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        status: 415,
        body: { message: 'Send the request body as JSON (Content-Type: application/json).' },
      };
    default:
      break;
  }
  // secure-json-parse refuses `__proto__` and `constructor.prototype` keys with a plain SyntaxError.
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return { status: 400, body: { message: 'The request body must be valid JSON.' } };
  }
  return undefined;
}

function validationMessage(
  error: SchemaError | undefined,
  context: string | undefined,
  messages: FieldMessages,
): string {
  const part = PARTS[context ?? 'body'] ?? 'The request';
  if (!error) return `${part} is not valid.`;
  const field =
    error.keyword === 'required'
      ? String(error.params.missingProperty)
      : error.keyword === 'additionalProperties'
        ? String(error.params.additionalProperty)
        : error.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const custom = messages[field];
  const chosen = custom?.[error.keyword] ?? custom?.['*'];
  if (chosen) return chosen;
  if (field === '') return `${part} must be a JSON object.`;
  switch (error.keyword) {
    case 'required':
      return `"${field}" is required.`;
    case 'additionalProperties':
      return `"${field}" is not a field of this request.`;
    case 'type':
      return `"${field}" must be ${error.params.type === 'string' ? 'text' : `of type ${String(error.params.type)}`}.`;
    case 'maxLength':
      return `"${field}" must be at most ${String(error.params.limit)} characters.`;
    case 'minLength':
      return `"${field}" must not be empty.`;
    default:
      return `"${field}" is not valid.`;
  }
}
