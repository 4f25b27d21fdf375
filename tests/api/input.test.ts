// @vitest-environment node
// Bad input for every route: wrong types, missing fields, unknown fields, huge bodies, malformed JSON,
// unicode edge cases. Each gets a 4xx with the one error shape and a sentence a person can read, and
// none leaves a trace in the database. On every backend: the unicode cases reach the database.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { OpenDatabase } from '../../api/database/open';
import { type ApiClient, apiClient, backends, openTestDatabase, resetDatabase } from '../support/apiHarness';

const SENTENCE = /^[A-Z"].+\.$/;

describe.each(backends())('bad input on %s', (kind) => {
  let database: OpenDatabase;
  let api: ApiClient;
  let cookie: string;

  // One database and session for the whole file: refused input changes nothing, and the few tests that do
  // change something put it back (hashing a password per test would dominate the run). The API itself is
  // built for each test: the mutation run credits the code that builds it (each route's schema and messages)
  // only to tests that run it, and an API built once for the file would leave those untested there.
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await resetDatabase(database);
    const first = await apiClient(database);
    cookie = await first.signIn();
    await first.close();
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });
  beforeEach(async () => {
    api = await apiClient(database);
  });
  afterEach(async () => {
    await api.close();
    await database.db.updateTable('users').set({ displayName: 'Demo User' }).where('id', '=', 'u1').execute();
  });

  /** A refusal in the one error shape; a form's refusal (core/forms.ts) also names its field in `fields`. */
  const expectRefused = async (
    res: { statusCode: number; json(): unknown; headers: Record<string, unknown> },
    status: number,
    message?: string,
    field?: string,
  ) => {
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json() as { message: string; fields?: Record<string, string> };
    expect(Object.keys(body)).toEqual(field ? ['message', 'fields'] : ['message']);
    expect(body.message).toMatch(SENTENCE);
    if (message) expect(body.message).toBe(message);
    if (field) expect(body.fields).toEqual({ [field]: body.message });
  };

  describe('POST /api/session', () => {
    const email = 'Enter your email address.';
    const password = 'Enter your password.';
    it.each([
      ['no body', undefined, 'The request body must be a JSON object.', undefined],
      ['empty object', {}, email, 'email'],
      ['missing password', { email: 'demo@example.com' }, password, 'password'],
      [
        'blank email',
        { email: '   ', password: 'demo-password' },
        'Enter an email address like name@example.com.',
        'email',
      ],
      [
        'an email without @',
        { email: 'demo', password: 'demo-password' },
        'Enter an email address like name@example.com.',
        'email',
      ],
      ['empty email', { email: '', password: 'demo-password' }, email, 'email'],
      ['empty password', { email: 'demo@example.com', password: '' }, password, 'password'],
      ['number email', { email: 42, password: 'demo-password' }, email, 'email'],
      ['boolean password', { email: 'demo@example.com', password: true }, password, 'password'],
      ['array password', { email: 'demo@example.com', password: ['demo-password'] }, password, 'password'],
      ['null email', { email: null, password: 'demo-password' }, email, 'email'],
      [
        'unknown field',
        { email: 'demo@example.com', password: 'demo-password', admin: true },
        '"admin" is not a field of this request.',
        undefined,
      ],
      [
        'an array',
        ['demo@example.com', 'demo-password'],
        'The request body must be a JSON object.',
        undefined,
      ],
      ['null', null, 'The request body must be a JSON object.', undefined],
      ['a string', 'demo@example.com', 'The request body must be a JSON object.', undefined],
      [
        'a very long email',
        { email: `${'a'.repeat(300)}@example.com`, password: 'x' },
        'Email must be at most 254 characters.',
        'email',
      ],
      [
        'a very long password',
        { email: 'demo@example.com', password: 'x'.repeat(1025) },
        'Password must be at most 1024 characters.',
        'password',
      ],
      [
        'NUL in the email',
        { email: 'demo@example.com\u0000', password: 'x' },
        'Email must not contain control characters.',
        undefined,
      ],
      [
        'a lone surrogate in the email',
        { email: 'demo\ud800@example.com', password: 'x' },
        'Email must be well-formed Unicode text.',
        undefined,
      ],
    ])('%s', async (_name, payload, message, field) => {
      const res = await api.request({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: payload === undefined ? '' : JSON.stringify(payload),
      });
      await expectRefused(res, 400, message, field);
    });

    it.each([
      ['cut-off JSON', '{"email": "demo@example.com", '],
      ['single quotes', "{'email': 'demo@example.com'}"],
      ['trailing comma', '{"email": "a", "password": "b",}'],
      ['prototype poisoning', '{"email": "a", "password": "b", "__proto__": {"admin": true}}'],
      [
        'constructor poisoning',
        '{"email": "a", "password": "b", "constructor": {"prototype": {"admin": true}}}',
      ],
    ])('malformed JSON: %s', async (_name, raw) => {
      const res = await api.request({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: raw,
      });
      await expectRefused(res, 400);
    });

    it('signs in with unicode in the password and treats emails of other scripts as unknown', async () => {
      const odd = await api.request({
        method: 'POST',
        url: '/api/session',
        payload: { email: 'dëmo@exämple.com', password: '🔑 pässwörd \u0000 with NUL' },
      });
      expect(odd.statusCode).toBe(401);
      expect(odd.json()).toEqual({ message: 'Incorrect email or password' });
    });
  });

  describe('PATCH /api/profile', () => {
    const required = 'Display name is required and must be text.';
    const length = 'Display name must be between 1 and 60 characters.';
    it.each([
      ['no field', {}, required, 'displayName'],
      ['a number', { displayName: 7 }, required, 'displayName'],
      ['null', { displayName: null }, required, 'displayName'],
      ['an object', { displayName: { first: 'Dee' } }, required, 'displayName'],
      ['blank', { displayName: '   ' }, length, 'displayName'],
      ['empty', { displayName: '' }, length, 'displayName'],
      ['61 characters', { displayName: 'x'.repeat(61) }, length, 'displayName'],
      ['61 emoji', { displayName: '🌱'.repeat(61) }, length, 'displayName'],
      ['61 characters between spaces', { displayName: ` ${'x'.repeat(61)} ` }, length, 'displayName'],
      [
        'a tab',
        { displayName: 'Tab\there' },
        'Display name must not contain control characters.',
        'displayName',
      ],
      [
        'NUL',
        { displayName: 'Nul\u0000l' },
        'Display name must not contain control characters.',
        'displayName',
      ],
      [
        'a newline',
        { displayName: 'Two\nlines' },
        'Display name must not contain control characters.',
        'displayName',
      ],
      [
        'a lone surrogate',
        { displayName: 'Half \udc00 pair' },
        'Display name must be well-formed Unicode text.',
        'displayName',
      ],
      [
        'an unknown field',
        { displayName: 'Dee', role: 'admin' },
        '"role" is not a field of this request.',
        undefined,
      ],
      ['far too long', { displayName: 'x'.repeat(5000) }, length, 'displayName'],
    ])('%s', async (_name, payload, message, field) => {
      const res = await api.request({ method: 'PATCH', url: '/api/profile', cookie, payload });
      await expectRefused(res, 400, message, field);
      const row = await database.db
        .selectFrom('users')
        .select('displayName')
        .where('id', '=', 'u1')
        .executeTakeFirst();
      expect(row?.displayName).toBe('Demo User');
    });

    it.each([
      ['60 emoji', '🌱'.repeat(60)],
      ['combining marks', 'Zoë Ångström'],
      ['right-to-left', 'مريم العلي'],
      ['a zero-width joiner family', '👩‍👩‍👧‍👦 Family'],
      ['CJK', '山田 太郎'],
    ])('keeps %s exactly', async (_name, displayName) => {
      const res = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        cookie,
        payload: { displayName },
      });
      expect(res.statusCode).toBe(200);
      expect((await api.request({ url: '/api/profile', cookie })).json().profile.displayName).toBe(
        displayName,
      );
    });

    it('refuses a body over 64 KiB with 413', async () => {
      const res = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        cookie,
        payload: { displayName: 'x'.repeat(70 * 1024) },
      });
      await expectRefused(res, 413, 'The request body must be at most 64 KiB.');
    });

    it('refuses a body that is not JSON with 415, and empty JSON with 400', async () => {
      const text = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        cookie,
        headers: { 'content-type': 'text/plain' },
        payload: 'Dee',
      });
      await expectRefused(text, 415);
      const none = await api.request({ method: 'PATCH', url: '/api/profile', cookie });
      await expectRefused(none, 415);
      const empty = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        cookie,
        headers: { 'content-type': 'application/json' },
        payload: '',
      });
      await expectRefused(empty, 400, 'The request body must be a JSON object.');
    });
  });

  describe('GET /api/campaigns/:id', () => {
    it.each(['01', 'abc', '0', '-1', '1.5', '1e3', '%F0%9F%8C%B1', '1%00', ' 1', '0x10'])(
      'answers 400 for id %j',
      async (id) => {
        const res = await api.request({ url: `/api/campaigns/${id}` });
        await expectRefused(res, 400, 'Campaign id must be a positive whole number.');
      },
    );
  });

  describe('GET /api/campaigns', () => {
    it('ignores unknown parameters and refuses an absurd featured value', async () => {
      expect((await api.request({ url: '/api/campaigns?x=%00&y=🌱' })).statusCode).toBe(200);
      await expectRefused(await api.request({ url: `/api/campaigns?featured=${'1'.repeat(50)}` }), 400);
    });
  });

  describe('every route', () => {
    it.each([
      ['GET', '/api/session'],
      ['DELETE', '/api/session'],
      ['GET', '/api/campaigns'],
      ['GET', '/api/campaigns/1'],
      ['GET', '/api/me/campaigns'],
      ['GET', '/api/profile'],
    ])('%s %s ignores a malformed cookie header', async (method, url) => {
      const res = await api.request({
        method: method as 'GET',
        url,
        headers: { cookie: 'sid=%E0%A4%A; ===; sid' },
      });
      expect(res.statusCode).toBeLessThan(500);
    });

    it('signs out with an empty DELETE whether or not it says Content-Length: 0', async () => {
      const cookie = await api.signIn();
      const res = await api.request({
        method: 'DELETE',
        url: '/api/session',
        cookie,
        headers: { 'content-length': '0' },
      });
      expect(res.statusCode).toBe(204);
      expect((await api.request({ url: '/api/session', cookie })).json().user).toBeNull();
    });

    it('takes JSON whatever the case and spacing of its media type', async () => {
      const res = await api.request({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'Application/JSON ; charset=utf-8' },
        payload: JSON.stringify({ email: 'demo@example.com', password: 'demo-password' }),
      });
      expect(res.statusCode).toBe(200);
    });

    it('refuses a chunked body on DELETE /api/session when it is not JSON', async () => {
      const res = await api.request({
        method: 'DELETE',
        url: '/api/session',
        cookie,
        headers: { 'transfer-encoding': 'chunked' },
        payload: 'bye',
      });
      await expectRefused(res, 415, 'Send the request body as JSON (Content-Type: application/json).');
      expect((await api.request({ url: '/api/session', cookie })).json().user).not.toBeNull();
    });

    it('refuses a body with a Content-Length that does not match it as not JSON (415)', async () => {
      const res = await api.request({
        method: 'PATCH',
        url: '/api/profile',
        cookie,
        headers: { 'content-type': 'application/json', 'content-length': '3' },
        payload: JSON.stringify({ displayName: 'Dee' }),
      });
      await expectRefused(res, 415, 'Send the request body as JSON (Content-Type: application/json).');
    });

    it('parses a body sent with OPTIONS as JSON only, then answers 405', async () => {
      const text = await api.request({
        method: 'OPTIONS',
        url: '/api/session',
        headers: { 'content-type': 'text/plain' },
        payload: 'x',
      });
      await expectRefused(text, 415, 'Send the request body as JSON (Content-Type: application/json).');
      const broken = await api.request({
        method: 'OPTIONS',
        url: '/api/session',
        headers: { 'content-type': 'application/json' },
        payload: '{',
      });
      await expectRefused(broken, 400, 'The request body must be valid JSON.');
    });

    it('refuses a body on DELETE /api/session when it is not JSON', async () => {
      const res = await api.request({
        method: 'DELETE',
        url: '/api/session',
        cookie,
        headers: { 'content-type': 'text/plain' },
        payload: 'bye',
      });
      await expectRefused(res, 415);
      expect((await api.request({ url: '/api/session', cookie })).json().user).not.toBeNull();
    });
  });
});
