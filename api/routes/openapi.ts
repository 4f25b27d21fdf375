/**
 * `GET /api/openapi.json`: the OpenAPI document the routes' JSON Schemas make (@fastify/swagger, registered by
 * ../plugin.ts before every route, collects them as they are registered). Only the document: no UI, nothing
 * the server's CSP would have to allow.
 */
import fastifySwagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
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

/** Registers @fastify/swagger in the API's scope: called before any route, it collects each as it is registered. */
export async function collectOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'campaign-web demo API',
        version: '1',
        description:
          'The JSON API under /api. Every route here is generated from its JSON Schemas (api/schemas.ts).',
      },
    },
    transformObject: (documents) =>
      'openapiObject' in documents
        ? withDefinitionsAsComponents(documents.openapiObject)
        : documents.swaggerObject,
  });
}

export const openApiRoutes: RoutePlugin = async (app) => {
  app.get(
    OPENAPI_PATH,
    { schema: { response: { 200: documentSchema, '4xx': errorBody, '5xx': errorBody } } },
    // An OpenAPI 3.1 document (../plugin.ts says so): what documentSchema asks of it.
    async () => app.swagger() as unknown as FromSchema<typeof documentSchema>,
  );
};

type Components = { components?: { schemas?: Record<string, unknown> } };

/**
 * The document with each schema's own definitions (`$defs`, which a route's schema refers to as `#/$defs/…`)
 * moved into `components.schemas` and the references rewritten to them: in a document, `#/…` is the document's
 * root, so a definition left in place would be a dangling reference to any tool that reads it. A name taken by
 * another definition gets a number; the same definition met twice is kept once.
 */
export function withDefinitionsAsComponents<Document extends Components>(document: Document): Document {
  const schemas: Record<string, unknown> = { ...document.components?.schemas };
  const place = (name: string, definition: unknown): string => {
    const text = JSON.stringify(definition);
    for (let n = 1; ; n += 1) {
      const candidate = n === 1 ? name : `${name}${n}`;
      if (!(candidate in schemas) || JSON.stringify(schemas[candidate]) === text) return candidate;
    }
  };
  const walk = (node: unknown, refs: ReadonlyMap<string, string>): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, refs));
    if (typeof node !== 'object' || node === null) return node;
    const { $defs, ...rest } = node as Record<string, unknown>;
    let scope = refs;
    if (typeof $defs === 'object' && $defs !== null) {
      const local = new Map(refs);
      const named = Object.entries($defs).map(([name, definition]) => {
        const component = place(name, definition);
        local.set(`#/$defs/${name}`, `#/components/schemas/${component}`);
        schemas[component] = definition;
        return [component, definition] as const;
      });
      scope = local;
      for (const [component, definition] of named) schemas[component] = walk(definition, scope);
    }
    return Object.fromEntries(
      Object.entries(rest).map(([key, value]) => [
        key,
        key === '$ref' && typeof value === 'string' ? (scope.get(value) ?? value) : walk(value, scope),
      ]),
    );
  };
  const { components, ...rest } = document;
  const paths = walk(rest, new Map()) as Omit<Document, 'components'>;
  return { ...paths, components: { ...components, schemas } } as Document;
}
