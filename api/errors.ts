import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FormDefinition } from '../core/forms.ts';
import { type ApiLog, loggable, loggablePath } from './logSafe.ts';
import type { ApiErrorBody } from './types.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Clear wording for this route's validation failures (FieldMessages below). */
    messages?: FieldMessages;
    /**
     * The form whose schema is this route's body (core/forms.ts): its messages word the refusals, and a refused
     * field is named in the answer's `fields`, for the page to show the message beside it.
     */
    form?: FormDefinition;
  }
}

/** An answer other than success, with the message the person using the app will read. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The form field the message is about (the page shows it under that field). */
    readonly field?: string,
  ) {
    super(message);
  }
}

/**
 * Per route: the message for a field that fails validation, by keyword (`*` for any). A field is named by its
 * dotted path; `*` stands for any array index (`events.*.type`), and a field's `*` message also covers what is
 * nested inside it (`state` for `state.navigation.loading`).
 */
export type FieldMessages = Readonly<Record<string, Readonly<Partial<Record<string, string>>>>>;

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
  form?: FormDefinition,
): { status: number; body: ApiErrorBody } | undefined {
  if (error.validation) {
    const first = error.validation[0] as SchemaError | undefined;
    const field = first ? fieldOf(first) : '';
    const context = error.validationContext;
    const message = validationMessage(first, context, form?.messages ?? messages);
    const ofForm =
      form !== undefined && (context ?? 'body') === 'body' && Object.hasOwn(form.schema.properties, field);
    return { status: 400, body: ofForm ? { message, fields: { [field]: message } } : { message } };
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
    // Stryker disable next-line ConditionalExpression: `default` is the switch's last case, so without its `break` it still falls out of the switch to the same statement.
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
  const field = fieldOf(error);
  const chosen = chosenMessage(messages, field, error.keyword);
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
    case 'maximum':
      return `"${field}" must be at most ${String(error.params.limit)}.`;
    case 'minimum':
      return `"${field}" must be at least ${String(error.params.limit)}.`;
    default:
      return `"${field}" is not valid.`;
  }
}

/** The dotted path of the field an error is about ('' for the whole body). */
function fieldOf(error: SchemaError): string {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') return String(error.params.additionalProperty);
  return error.instancePath.replace(/^\//, '').replace(/\//g, '.');
}

function chosenMessage(messages: FieldMessages, field: string, keyword: string): string | undefined {
  const wildcard = field.replace(/(^|\.)\d+(?=\.|$)/g, '$1*');
  for (const name of new Set([field, wildcard])) {
    const chosen = messages[name]?.[keyword] ?? messages[name]?.['*'];
    if (chosen) return chosen;
  }
  const parts = wildcard.split('.');
  for (let length = parts.length - 1; length > 0; length -= 1) {
    const chosen = messages[parts.slice(0, length).join('.')]?.['*'];
    if (chosen) return chosen;
  }
  return undefined;
}

/**
 * The API's error handler: an HttpError as it says, a Fastify error it knows in the one error body shape
 * (describeError), anything else a logged 500 that tells nothing of what failed. `bodyLimitBytes` is the
 * default limit, for a route without one of its own.
 */
export function errorAnswers(log: ApiLog, bodyLimitBytes: number) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof HttpError) {
      return reply
        .code(error.statusCode)
        .headers(error.headers)
        .send(
          error.field
            ? { message: error.message, fields: { [error.field]: error.message } }
            : { message: error.message },
        );
    }
    const limit = request.routeOptions.bodyLimit ?? bodyLimitBytes;
    const { messages, form } = request.routeOptions.config ?? {};
    const described = describeError(error, messages, limit, form);
    if (described) return reply.code(described.status).send(described.body);
    log.error(`[demo-api] ${request.method} ${loggablePath(request.url)} failed:`, loggable(error));
    return reply.code(500).send({ message: 'The demo API failed unexpectedly.' });
  };
}
