// @vitest-environment node
// The OpenAPI document (GET /api/openapi.json, api/routes/openapi.ts) against the API as it runs: every route
// registered under /api is in it, and a real request to each (a success and a refusal) answers what the document
// says for that status, and a body it sends matches the documented request body when taken and not when refused.
// A route added without schemas, or without a request here, fails this file. Ajv compiles each schema inside the
// document, so a reference left dangling in it (a route's own `$defs`) fails too.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { InjectOptions, RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { testApiConfig } from '../../api/config';
import { type ApiClient, backends, useApi } from '../support/apiHarness';
import { sampleReport } from '../support/reportFixture';

const READ_TOKEN = 'a-read-token-of-thirty-two-chars';
const START = Date.UTC(2026, 0, 1);
const PROBE_PASSWORD = 'a probe passphrase 7f3k2';
let probeAccounts = 0;
/** An address no account has yet: each sign-up of the probes makes one. */
const newEmail = () => {
  probeAccounts += 1;
  return `probe${probeAccounts}@example.com`;
};

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
}

/**
 * A request to make, and the status it must get; `signedIn` sends the demo user's session cookie, `newAccount`
 * the cookie of an account signed up just before (PROBE_PASSWORD), for a request that changes or ends it.
 */
interface Probe {
  status: number;
  signedIn?: boolean;
  newAccount?: boolean;
  request?: Omit<InjectOptions, 'method' | 'url' | 'headers'> & {
    url?: string;
    headers?: Record<string, string>;
  };
}

/**
 * The requests made of each route, by `METHOD path` as Fastify registers it: at least a success and a refusal.
 * A route not listed here fails the test until its requests are written.
 */
const PROBES: Record<string, Probe[]> = {
  'GET /api/session': [{ status: 200 }, { status: 200, signedIn: true }],
  'POST /api/session': [
    { status: 200, request: { payload: { email: 'demo@example.com', password: 'demo-password' } } },
    { status: 400, request: { payload: { email: 'demo@example.com' } } },
    { status: 401, request: { payload: { email: 'demo@example.com', password: 'wrong-password' } } },
  ],
  'DELETE /api/session': [{ status: 204, signedIn: true }],
  'GET /api/campaigns': [{ status: 200 }, { status: 200, request: { url: '/api/campaigns?featured=1' } }],
  'GET /api/campaigns/:id': [
    { status: 200, request: { url: '/api/campaigns/1' } },
    { status: 404, request: { url: '/api/campaigns/999' } },
    { status: 400, request: { url: '/api/campaigns/x' } },
  ],
  'GET /api/me/campaigns': [{ status: 200, signedIn: true }, { status: 401 }],
  'GET /api/profile': [{ status: 200, signedIn: true }, { status: 401 }],
  'PATCH /api/profile': [
    { status: 200, signedIn: true, request: { payload: { displayName: 'Ada' } } },
    { status: 400, signedIn: true, request: { payload: { displayName: ' ' } } },
    { status: 401, request: { payload: { displayName: 'Ada' } } },
  ],
  'POST /api/reports': [
    { status: 201, request: { payload: sampleReport({}, START) } },
    { status: 400, request: { payload: { ...sampleReport({}, START), kind: 'other' } } },
  ],
  'GET /api/reports': [
    { status: 200, request: { headers: { authorization: `Bearer ${READ_TOKEN}` } } },
    { status: 401 },
    {
      status: 400,
      request: { url: '/api/reports?limit=0', headers: { authorization: `Bearer ${READ_TOKEN}` } },
    },
  ],
  'GET /api/openapi.json': [{ status: 200 }],
  'POST /api/account': [
    {
      status: 201,
      request: {
        payload: { email: 'probe-signup@example.com', displayName: 'Probe', password: PROBE_PASSWORD },
      },
    },
    { status: 400, request: { payload: { email: 'probe-signup@example.com' } } },
    {
      status: 409,
      request: { payload: { email: 'demo@example.com', displayName: 'Probe', password: PROBE_PASSWORD } },
    },
  ],
  'GET /api/demo-accounts': [{ status: 200 }],
  'PUT /api/account/password': [
    {
      status: 204,
      newAccount: true,
      request: { payload: { currentPassword: PROBE_PASSWORD, newPassword: 'another probe passphrase 9q' } },
    },
    { status: 400, signedIn: true, request: { payload: { currentPassword: 'demo-password' } } },
    { status: 401, request: { payload: { currentPassword: PROBE_PASSWORD, newPassword: PROBE_PASSWORD } } },
  ],
  'DELETE /api/account': [
    { status: 204, newAccount: true, request: { payload: { password: PROBE_PASSWORD } } },
    { status: 400, signedIn: true, request: { payload: {} } },
    { status: 401, request: { payload: { password: PROBE_PASSWORD } } },
  ],
};

/** Signs up a new account (PROBE_PASSWORD) and answers its session cookie. */
async function signUp(api: ApiClient): Promise<string> {
  const payload = { email: newEmail(), displayName: 'Probe', password: PROBE_PASSWORD };
  const res = await api.request({ method: 'POST', url: '/api/account', payload });
  if (res.statusCode !== 201) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const pair = String(res.headers['set-cookie']).split(';')[0];
  if (!pair) throw new Error('no session cookie');
  return pair;
}

/** The API's own routes: not HEAD (Fastify's copy of each GET), nor the 404 and 405 stand-ins. */
function apiRoutes(routes: readonly RouteOptions[]): { method: string; url: string; route: RouteOptions }[] {
  return routes
    .filter((route) => route.url.startsWith('/api/') && !route.config?.methodNotAllowed)
    .filter((route) => route.url !== '/api/' && route.url !== '/api/*')
    .flatMap((route) => [route.method].flat().map((method) => ({ method, url: route.url, route })))
    .filter(({ method }) => method !== 'HEAD');
}

/** Fastify's `/campaigns/:id` is OpenAPI's `/campaigns/{id}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z_]\w*)/g, '{$1}');

/** A JSON pointer to the document's `parts`, escaped (`/api/session` is `~1api~1session`). */
const pointerTo = (...parts: string[]) =>
  parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The status key of the document that covers `status`: its own, or its class (`4XX`). */
function documented(responses: Record<string, { content?: Record<string, unknown> }>, status: number) {
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`];
}

describe.each(backends())('the OpenAPI document on %s', { timeout: 60_000 }, (kind) => {
  const { open, clock } = useApi(kind, { startAt: START });
  let api: ApiClient;
  let document: OpenApiDocument;

  const openApi = () => open({ config: { reports: { ...testApiConfig().reports, readToken: READ_TOKEN } } });

  beforeAll(() => {
    clock.now = START;
  });

  it('is served at /api/openapi.json as OpenAPI 3.1, with the server’s answer headers', async () => {
    api = await openApi();
    const res = await api.request({ url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json()).toMatchObject({ openapi: '3.1.0', info: { title: 'campaign-web demo API' } });
  });

  it('lists every route registered under /api, and each has a request written here', async () => {
    api = await openApi();
    document = (await api.request({ url: '/api/openapi.json' })).json();
    const registered = apiRoutes(api.routes).map(({ method, url }) => `${method} ${url}`);
    expect(registered.length).toBeGreaterThan(0);
    for (const key of registered) {
      const [method = '', url = ''] = key.split(' ');
      expect(
        document.paths[openApiPath(url)]?.[method.toLowerCase()],
        `${key} is not in the document`,
      ).toBeDefined();
    }
    expect(registered.sort()).toEqual(Object.keys(PROBES).sort());
    const inDocument = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(inDocument.sort()).toEqual(registered.map((key) => openApiPath(key)).sort());
  });

  it('declares a response schema for every route: each status it answers is documented', async () => {
    api = await openApi();
    for (const { method, url, route } of apiRoutes(api.routes)) {
      const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response;
      expect(response, `${method} ${url} has no response schema`).toBeDefined();
      expect(Object.keys(response ?? {}), `${method} ${url} documents no error answer`).toEqual(
        expect.arrayContaining(['4xx', '5xx']),
      );
    }
  });

  it('answers each route’s real requests as the document says for their status', async () => {
    api = await openApi();
    document = (await api.request({ url: '/api/openapi.json' })).json();
    // The document is one schema resource: a response schema is addressed inside it by JSON pointer.
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
    ajv.addSchema(document, 'openapi');
    const cookie = await api.signIn();
    let checked = 0;
    for (const { method, url } of apiRoutes(api.routes)) {
      const path = openApiPath(url);
      const responses = document.paths[path]?.[method.toLowerCase()]?.responses ?? {};
      for (const probe of PROBES[`${method} ${url}`] ?? []) {
        const res = await api.request({
          method: method as InjectOptions['method'],
          url: probe.request?.url ?? url,
          ...(probe.request?.payload !== undefined ? { payload: probe.request.payload } : {}),
          ...(probe.request?.headers ? { headers: probe.request.headers } : {}),
          ...(probe.signedIn ? { cookie: await api.signIn() } : {}),
          ...(probe.newAccount ? { cookie: await signUp(api) } : {}),
        });
        const label = `${method} ${probe.request?.url ?? url} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, label).toBe(probe.status);
        if (probe.request?.payload !== undefined) {
          // The documented request body: what was taken matches it, what was refused as invalid does not.
          const body = pointerTo(
            'paths',
            path,
            method.toLowerCase(),
            'requestBody',
            'content',
            'application/json',
          );
          const validateBody = ajv.compile({ $ref: `openapi#/${body}/schema` });
          if (res.statusCode < 300) expect(validateBody(probe.request.payload), label).toBe(true);
          if (res.statusCode === 400) expect(validateBody(probe.request.payload), label).toBe(false);
        }
        const answer = documented(responses, res.statusCode);
        expect(answer, `${label}: status not documented`).toBeDefined();
        if (res.statusCode === 204) {
          expect(res.body, label).toBe('');
          checked += 1;
          continue;
        }
        const status = Object.keys(responses).find((key) => responses[key] === answer) ?? '';
        const pointer = pointerTo(
          'paths',
          path,
          method.toLowerCase(),
          'responses',
          status,
          'content',
          'application/json',
        );
        const validate = ajv.compile({ $ref: `openapi#/${pointer}/schema` });
        expect(validate(res.json()), `${label}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        checked += 1;
      }
    }
    expect(cookie).toMatch(/^sid=/);
    expect(checked).toBe(Object.values(PROBES).flat().length);
  });
});
