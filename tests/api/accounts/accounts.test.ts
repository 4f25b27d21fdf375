// @vitest-environment node
// Accounts people make and end: sign-up (JSON and HTML form), the password policy, the email's uniqueness by the
// database, the per-address sign-up limit, password change (other sessions end, this one stays) and deletion
// (its sessions and its drafts go; refused while it runs a public campaign).
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { EMAIL_TAKEN, RUNNING_CAMPAIGNS, WRONG_PASSWORD } from '../../../api/accounts';
import { type ApiClient, backends, useApi } from '../../support/apiHarness';

// Every sign-up hashes with argon2id at OWASP's cost: seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const FORM = 'application/x-www-form-urlencoded';
const GOOD = 'correct horse battery staple';

describe.each(backends())('accounts on %s', (kind) => {
  const { database, open } = useApi(kind);
  const db = () => database().db;
  const counts = async () => {
    const row = await sql<{ users: string; sessions: string }>`
      select (select count(*) from users) as users, (select count(*) from sessions) as sessions`.execute(
      db(),
    );
    return { users: Number(row.rows[0]?.users), sessions: Number(row.rows[0]?.sessions) };
  };
  const signUp = (api: ApiClient, fields: Record<string, unknown>, cookie?: string) =>
    api.request({
      method: 'POST',
      url: '/api/account',
      payload: { email: 'new@example.com', displayName: 'New Person', password: GOOD, ...fields },
      ...(cookie ? { cookie } : {}),
    });
  const cookieOf = (res: { headers: Record<string, unknown> }) =>
    String(res.headers['set-cookie']).split(';')[0] ?? '';

  describe('sign-up', () => {
    it('makes the account and signs it in with a fresh session', async () => {
      const api = await open();
      const old = await api.signIn();
      const res = await signUp(api, {}, old);
      expect(res.statusCode).toBe(201);
      expect(res.json()).toMatchObject({ user: { email: 'new@example.com', displayName: 'New Person' } });
      const cookie = cookieOf(res);
      expect(cookie).not.toBe(old);
      const session = await api.request({ method: 'GET', url: '/api/session', cookie });
      expect(session.json()).toMatchObject({ user: { email: 'new@example.com' } });
      // The session the request came with has ended (no fixation).
      const before = await api.request({ method: 'GET', url: '/api/session', cookie: old });
      expect(before.json()).toEqual({ user: null });
      const stored = await db()
        .selectFrom('users')
        .select(['emailKey', 'passwordHash'])
        .where('email', '=', 'new@example.com')
        .executeTakeFirstOrThrow();
      expect(stored.emailKey).toBe('new@example.com');
      expect(stored.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      // And it signs in as any account does.
      await api.signIn('new@example.com', GOOD);
    });

    it.each([
      ['an empty email', { email: '' }, 'email', /Enter your email/],
      ['a malformed email', { email: 'not-an-address' }, 'email', /like name@example.com/],
      ['an email without a domain dot', { email: 'a@b' }, 'email', /like name@example.com/],
      ['a 255-character email', { email: `${'a'.repeat(243)}@example.com` }, 'email', /at most 254/],
      ['a bidi override in the email', { email: 'a\u202e@example.com' }, 'email', /like name@example.com/],
      ['NUL in the email', { email: 'a\u0000@example.com' }, 'email', /control characters/],
      ['an empty display name', { displayName: '  ' }, 'displayName', /Display name/],
      ['a bidi control in the name', { displayName: 'Eve\u202e' }, 'displayName', /invisible/],
      ['NUL in the name', { displayName: 'Eve\u0000' }, 'displayName', /control characters/],
      ['a lone surrogate in the name', { displayName: 'Eve\ud800' }, 'displayName', /well-formed/],
      ['an empty password', { password: '' }, 'password', /Enter a password/],
      ['a 7-character password', { password: 'abcdefg' }, 'password', /at least 8 .*15 or more/],
      ['a 129-character password', { password: 'x'.repeat(129) }, 'password', /at most 128/],
      ['a common password', { password: 'password1' }, 'password', /common or breached/],
      ['a common password in capitals', { password: 'PASSWORD1' }, 'password', /common or breached/],
      ['a lone surrogate in the password', { password: `${GOOD}\udc00` }, 'password', /broken Unicode/],
      ['NUL in the password', { password: `${GOOD}\u0000` }, 'password', /NUL/],
    ])('refuses %s with a message on its field, writing nothing', async (_name, fields, field, message) => {
      const api = await open();
      const before = await counts();
      const res = await signUp(api, fields);
      expect(res.statusCode).toBe(400);
      const body = res.json() as { message: string; fields?: Record<string, string> };
      // The field refused, by name, with the same message (the page shows it under that field).
      expect(body.fields).toEqual({ [field]: body.message });
      expect(body.message).toMatch(message);
      expect(await counts()).toEqual(before);
    });

    it('takes the bounds: 8 and 128 characters, any Unicode, counted as characters', async () => {
      const api = await open();
      for (const [i, password] of ['abcdefgh', 'é'.repeat(128), '🔑'.repeat(64), 'пароль пароль'].entries()) {
        const res = await signUp(api, { email: `bound${i}@example.com`, password });
        expect(res.statusCode, password).toBe(201);
      }
      // NFC and NFD spellings of one password are one password.
      await api.signIn('bound1@example.com', 'e\u0301'.repeat(128));
    });

    it('refuses an existing email in another case or in an NFKC-equivalent form (409 on the email)', async () => {
      const api = await open();
      for (const email of ['DEMO@example.com', 'ｄｅｍｏ@example.com', ' Demo@Example.com ']) {
        const before = await counts();
        const res = await signUp(api, { email });
        expect(res.statusCode, email).toBe(409);
        expect(res.json()).toEqual({ message: EMAIL_TAKEN, fields: { email: EMAIL_TAKEN } });
        expect(await counts()).toEqual(before);
      }
    });

    it('makes one account of two sign-ups of one address at once; the other gets a clear 409', async () => {
      const api = await open();
      const results = await Promise.all([
        signUp(api, { email: 'twice@example.com' }),
        signUp(api, { email: 'TWICE@example.com', displayName: 'Other' }),
      ]);
      expect(results.map((res) => res.statusCode).sort()).toEqual([201, 409]);
      const refused = results.find((res) => res.statusCode === 409);
      expect(refused?.json()).toEqual({ message: EMAIL_TAKEN, fields: { email: EMAIL_TAKEN } });
      const rows = await db()
        .selectFrom('users')
        .select('id')
        .where('emailKey', '=', 'twice@example.com')
        .execute();
      expect(rows).toHaveLength(1);
    });

    it('limits sign-ups per address in the database: well-formed tries count, typos do not', async () => {
      const api = await open({ config: { signUpLimits: { perAddress: 2, windowSeconds: 3600 } } });
      expect((await signUp(api, { email: 'bad' })).statusCode).toBe(400);
      expect((await signUp(api, { email: 'one@example.com' })).statusCode).toBe(201);
      expect((await signUp(api, { email: 'demo@example.com' })).statusCode).toBe(409);
      const refused = await signUp(api, { email: 'three@example.com' });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json()).toMatchObject({ message: expect.stringMatching(/Too many sign-ups/) });
      // Another server process on the same database counts the same.
      const other = await open({ config: { signUpLimits: { perAddress: 2, windowSeconds: 3600 } } });
      expect((await signUp(other, { email: 'four@example.com' })).statusCode).toBe(429);
    });

    it('refuses a hostile post: no origin, another content type, a huge body', async () => {
      const api = await open();
      const before = await counts();
      const payload = { email: 'x@example.com', displayName: 'X', password: GOOD };
      const noOrigin = await api.request({
        method: 'POST',
        url: '/api/account',
        payload,
        headers: { origin: undefined, 'sec-fetch-site': undefined },
      });
      expect(noOrigin.statusCode).toBe(403);
      const asText = await api.request({
        method: 'POST',
        url: '/api/account',
        payload: JSON.stringify(payload),
        headers: { 'content-type': 'text/plain' },
      });
      expect(asText.statusCode).toBe(415);
      const huge = await api.request({
        method: 'POST',
        url: '/api/account',
        payload: { ...payload, displayName: 'x'.repeat(200_000) },
      });
      expect(huge.statusCode).toBe(413);
      const formHuge = await api.request({
        method: 'POST',
        url: '/login?mode=signup',
        payload: `email=a%40example.com&displayName=${'x'.repeat(200_000)}&password=p`,
        headers: { 'content-type': FORM },
      });
      expect(formHuge.statusCode).toBe(413);
      const formNoOrigin = await api.request({
        method: 'POST',
        url: '/login?mode=signup',
        payload: 'email=a%40example.com',
        headers: { 'content-type': FORM, origin: undefined, 'sec-fetch-site': undefined },
      });
      expect(formNoOrigin.statusCode).toBe(403);
      expect(await counts()).toEqual(before);
    });

    it('signs up through the HTML form as through JSON, and a refused form keeps what was typed but the password', async () => {
      const api = await open();
      const made = await api.request({
        method: 'POST',
        url: '/login?mode=signup&redirect=%2Fprofile',
        payload: new URLSearchParams({
          email: 'form@example.com',
          displayName: 'Form',
          password: GOOD,
        }).toString(),
        headers: { 'content-type': FORM },
      });
      expect(made.statusCode).toBe(303);
      expect(made.headers.location).toBe('/profile');
      const session = await api.request({ method: 'GET', url: '/api/session', cookie: cookieOf(made) });
      expect(session.json()).toMatchObject({ user: { email: 'form@example.com', displayName: 'Form' } });

      const refused = await api.request({
        method: 'POST',
        url: '/login?mode=signup',
        payload: new URLSearchParams({
          email: 'DEMO@example.com',
          displayName: 'Eve <b>',
          password: 'secret-typed',
        }).toString(),
        headers: { 'content-type': FORM },
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.body).toContain(EMAIL_TAKEN);
      expect(refused.body).not.toContain('secret-typed');
    });
  });

  describe('password change', () => {
    const change = (api: ApiClient, cookie: string, fields: Record<string, unknown>) =>
      api.request({
        method: 'PUT',
        url: '/api/account/password',
        payload: { currentPassword: 'demo-password', newPassword: GOOD, ...fields },
        cookie,
      });

    it('needs the current password; ends every other session of the account and keeps this one', async () => {
      const api = await open();
      const here = await api.signIn();
      const elsewhere = await api.signIn();
      const sam = await api.signIn('sam@example.com', 'sam-password');
      const wrong = await change(api, here, { currentPassword: 'not it' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({ message: WRONG_PASSWORD, fields: { currentPassword: WRONG_PASSWORD } });
      const weak = await change(api, here, { newPassword: 'qwertyuiop' });
      expect(weak.json()).toMatchObject({ fields: { newPassword: expect.any(String) } });

      expect((await change(api, here, {})).statusCode).toBe(204);
      const user = async (cookie: string) =>
        (await api.request({ method: 'GET', url: '/api/session', cookie })).json() as { user: unknown };
      expect((await user(here)).user).not.toBeNull();
      expect((await user(elsewhere)).user).toBeNull();
      expect((await user(sam)).user).not.toBeNull();
      await expect(api.signIn('demo@example.com', 'demo-password')).rejects.toThrow(/401/);
      await api.signIn('demo@example.com', GOOD);
    });

    it('is refused without a session (401) and through the form without JavaScript the same way', async () => {
      const api = await open();
      expect((await change(api, 'sid=nothing', {})).statusCode).toBe(401);
      const cookie = await api.signIn();
      const res = await api.request({
        method: 'POST',
        url: '/profile/password',
        payload: new URLSearchParams({ currentPassword: 'demo-password', newPassword: GOOD }).toString(),
        headers: { 'content-type': FORM },
        cookie,
      });
      expect(res.statusCode).toBe(303);
      await api.signIn('demo@example.com', GOOD);
    });
  });

  describe('account deletion', () => {
    const remove = (api: ApiClient, cookie: string, password = GOOD) =>
      api.request({ method: 'DELETE', url: '/api/account', payload: { password }, cookie });

    it('needs the password; ends its sessions and deletes its drafts with it', async () => {
      const api = await open();
      const made = await signUp(api, { email: 'leaving@example.com' });
      const cookie = cookieOf(made);
      const other = await api.signIn('leaving@example.com', GOOD);
      const { id } = (made.json() as { user: { id: string } }).user;
      await db()
        .insertInto('campaigns')
        .values({
          id: 900,
          title: 'A draft',
          summary: 's',
          description: 'd',
          status: 'draft',
          goal: 10,
          raised: 0,
          ownerId: id,
          featured: false,
          image: null,
          startsOn: '2026-01-01',
          endsOn: '2026-02-01',
        })
        .execute();
      const wrong = await remove(api, cookie, 'not it');
      expect(wrong.json()).toEqual({ message: WRONG_PASSWORD, fields: { password: WRONG_PASSWORD } });
      expect((await remove(api, cookie)).statusCode).toBe(204);
      expect(await db().selectFrom('users').select('id').where('id', '=', id).execute()).toEqual([]);
      expect(await db().selectFrom('campaigns').select('id').where('id', '=', 900).execute()).toEqual([]);
      expect(await db().selectFrom('sessions').select('idHash').where('userId', '=', id).execute()).toEqual(
        [],
      );
      const session = await api.request({ method: 'GET', url: '/api/session', cookie: other });
      expect(session.json()).toEqual({ user: null });
      // The address is free again.
      expect((await signUp(api, { email: 'leaving@example.com' })).statusCode).toBe(201);
    });

    it('is refused while the account runs a public campaign, and nothing is deleted', async () => {
      const api = await open();
      const cookie = await api.signIn();
      const before = await counts();
      const res = await remove(api, cookie, 'demo-password');
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: RUNNING_CAMPAIGNS });
      expect(await counts()).toEqual(before);
    });
  });
});
