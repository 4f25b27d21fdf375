/**
 * `GET /api/openapi.json`: the OpenAPI document the routes' JSON Schemas make (@fastify/swagger, registered by
 * ../plugin.ts before every route, collects them as they are registered). Only the document: no UI, nothing
 * the server's CSP would have to allow.
 */
import type { FromSchema } from 'json-schema-to-ts';
import { errorBody } from '../schemas.ts';
import type { RoutePlugin } from './context.ts';

/** What the document promises at least; the rest is OpenAPI's, serialised as it is. */
const documentSchema = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  additionalProperties: true,
  properties: {
    openapi: { type: 'string' },
    info: {
      type: 'object',
      required: ['title', 'version'],
      additionalProperties: true,
      properties: { title: { type: 'string' }, version: { type: 'string' } },
    },
    paths: { type: 'object', additionalProperties: true },
  },
} as const;

export const OPENAPI_PATH = '/openapi.json';

export const openApiRoutes: RoutePlugin = async (app) => {
  app.get(
    OPENAPI_PATH,
    { schema: { response: { 200: documentSchema, '4xx': errorBody, '5xx': errorBody } } },
    // An OpenAPI 3.1 document (../plugin.ts says so): what documentSchema asks of it.
    async () => app.swagger() as unknown as FromSchema<typeof documentSchema>,
  );
};
