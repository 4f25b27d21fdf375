// JSON Schemas of the demo API's requests and answers. Fastify validates requests against them (a
// 400 with a clear message, see ./errors.ts) and serialises answers through them, so a field that is
// not listed here never leaves the server. They describe exactly the types in ../types.ts, the wire
// contract the browser code imports; the API tests compare real answers with those types field by field.

import { DISPLAY_NAME_INPUT_MAX } from './accounts.ts';

export const errorBody = {
  type: 'object',
  required: ['message'],
  additionalProperties: false,
  properties: { message: { type: 'string' } },
} as const;

const publicUser = {
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

const campaignSummary = {
  type: 'object',
  required: Object.keys(campaignSummaryProperties),
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

const campaign = {
  type: 'object',
  required: Object.keys(campaignProperties),
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

export const signInBody = {
  type: 'object',
  required: ['email', 'password'],
  additionalProperties: false,
  properties: {
    // RFC 5321's path limit; long enough for any real address, short enough to bound the work.
    email: { type: 'string', minLength: 1, maxLength: 254 },
    // Long passphrases are welcome; beyond this it is an attack on the hashing.
    password: { type: 'string', minLength: 1, maxLength: 1024 },
  },
} as const;

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

export const profileUpdateBody = {
  type: 'object',
  required: ['displayName'],
  additionalProperties: false,
  // The real limit (core/limits.ts, once trimmed) is checked after trimming; this bounds the input.
  properties: { displayName: { type: 'string', maxLength: DISPLAY_NAME_INPUT_MAX } },
} as const;
