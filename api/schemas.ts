/**
 * JSON Schemas of the demo API's requests and answers: the one place a wire shape is written. Fastify validates
 * requests against them (a 400 with a clear message, ./errors.ts) and serialises answers through them, so a field
 * not listed here never leaves the server; the routes take their request and reply types from them through the
 * type provider (./routes/context.ts); ./types.ts derives the types the browser imports; `GET /api/openapi.json`
 * publishes them. A form's body schema lives in core/forms.ts with its messages, since the page checks it too.
 * Every schema is a plain `as const` literal, so json-schema-to-ts can read its type.
 */

import { displayNameForm, signInForm } from '../core/forms.ts';

export const errorBody = {
  type: 'object',
  required: ['message'],
  additionalProperties: false,
  properties: {
    message: { type: 'string' },
    /** A form's refusal: the message of the field refused (core/forms.ts), for the page to show beside it. */
    fields: { type: 'object', additionalProperties: { type: 'string' } },
  },
} as const;

export const publicUser = {
  type: 'object',
  required: ['id', 'email', 'displayName'],
  additionalProperties: false,
  properties: { id: { type: 'string' }, email: { type: 'string' }, displayName: { type: 'string' } },
} as const;

const campaignSummaryProperties = {
  id: { type: 'integer' },
  title: { type: 'string' },
  summary: { type: 'string' },
  status: { type: 'string', enum: ['draft', 'active', 'paused', 'completed'] },
  goal: { type: 'integer' },
  raised: { type: 'integer' },
  featured: { type: 'boolean' },
  image: { type: ['string', 'null'] },
} as const;

export const campaignSummary = {
  type: 'object',
  required: ['id', 'title', 'summary', 'status', 'goal', 'raised', 'featured', 'image'],
  additionalProperties: false,
  properties: campaignSummaryProperties,
} as const;

const campaignProperties = {
  ...campaignSummaryProperties,
  description: { type: 'string' },
  ownerId: { type: 'string' },
  ownerName: { type: 'string' },
  startsOn: { type: 'string' },
  endsOn: { type: 'string' },
} as const;

export const campaign = {
  type: 'object',
  required: [...campaignSummary.required, 'description', 'ownerId', 'ownerName', 'startsOn', 'endsOn'],
  additionalProperties: false,
  properties: campaignProperties,
} as const;

/** Every error answer, whatever the status, has this one shape. */
const errors = { '4xx': errorBody, '5xx': errorBody } as const;

export const sessionResponse = {
  200: {
    type: 'object',
    required: ['user'],
    additionalProperties: false,
    properties: { user: { anyOf: [publicUser, { type: 'null' }] } },
  },
  ...errors,
} as const;

export const signInBody = signInForm.schema;

export const signInResponse = {
  200: {
    type: 'object',
    required: ['user'],
    additionalProperties: false,
    properties: { user: publicUser },
  },
  ...errors,
} as const;

export const noContent = { 204: { type: 'null' }, ...errors } as const;

export const campaignListQuery = {
  type: 'object',
  // Unknown parameters (cache busters, tracking) are ignored rather than refused.
  properties: { featured: { type: 'string', maxLength: 10 }, after: { type: 'string', maxLength: 16 } },
} as const;

export const campaignListResponse = {
  200: {
    type: 'object',
    required: ['campaigns'],
    additionalProperties: false,
    properties: {
      campaigns: { type: 'array', items: campaignSummary },
      next: { type: ['string', 'null'] },
    },
  },
  ...errors,
} as const;

export const campaignParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' } },
} as const;

export const campaignResponse = {
  200: {
    type: 'object',
    required: ['campaign'],
    additionalProperties: false,
    properties: { campaign },
  },
  ...errors,
} as const;

export const profileResponse = {
  200: {
    type: 'object',
    required: ['profile'],
    additionalProperties: false,
    properties: { profile: publicUser },
  },
  ...errors,
} as const;

export const profileUpdateBody = displayNameForm.schema;

/**
 * The account forms' bodies (`POST /api/account`, `PUT /api/account/password`, `DELETE /api/account`). The
 * bounds here only cap what is read; the real rules (lengths in characters once normalised, the email's shape,
 * the common passwords) are ../accountRules.ts's, the same for the JSON routes and the HTML forms, with a
 * message by field.
 */
const accountText = { type: 'string', maxLength: 2048 } as const;

export const signUpBody = {
  type: 'object',
  required: ['email', 'displayName', 'password'],
  additionalProperties: false,
  properties: { email: accountText, displayName: accountText, password: accountText },
} as const;

export const signUpResponse = {
  201: {
    type: 'object',
    required: ['user'],
    additionalProperties: false,
    properties: { user: publicUser },
  },
  ...errors,
} as const;

export const passwordChangeBody = {
  type: 'object',
  required: ['currentPassword', 'newPassword'],
  additionalProperties: false,
  properties: { currentPassword: accountText, newPassword: accountText },
} as const;

export const accountDeleteBody = {
  type: 'object',
  required: ['password'],
  additionalProperties: false,
  properties: { password: accountText },
} as const;

export const demoAccountsResponse = {
  200: {
    type: 'object',
    required: ['accounts'],
    additionalProperties: false,
    properties: {
      accounts: {
        type: 'array',
        items: {
          type: 'object',
          required: ['email', 'password'],
          additionalProperties: false,
          properties: { email: { type: 'string' }, password: { type: 'string' } },
        },
      },
    },
  },
  ...errors,
} as const;
