// @vitest-environment node
// The form routes (api/routes/forms.ts) over a stand-in for api/accounts.ts, without a database: what they log,
// and what an empty form reaches the accounts with. Everything else about them, over the real accounts and both
// databases, is in tests/api/forms/routes.test.ts.
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Accounts } from '../../../api/accounts';
import { HttpError } from '../../../api/errors';
import { formsPlugin } from '../../../api/routes/forms';

const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' };

/** Accounts whose every operation does what `behaviour` says; the origin check passes. */
function fakeAccounts(behaviour: Record<string, (...args: never[]) => Promise<unknown>>): Accounts {
  return {
    cookieName: 'sid',
    sessionSeconds: 3600,
    checkOrigin: () => undefined,
    signIn: async () => ({ user: {}, token: 't' }),
    signOut: async () => undefined,
    saveProfile: async () => ({}),
    ...behaviour,
  } as unknown as Accounts;
}

async function formsApp(accounts: Accounts) {
  const log = { error: vi.fn() };
  const app = Fastify();
  await app.register(formsPlugin, {
    accounts,
    bodyLimitBytes: 1024,
    loginTemplate: async () => undefined,
    log,
  });
  apps.push(app);
  return { app, log };
}

const apps: Awaited<ReturnType<typeof Fastify>>[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

describe('the form routes', () => {
  it('log a failure of ours (5xx), never a refusal of the visitor’s input (4xx)', async () => {
    const refused = await formsApp(
      fakeAccounts({
        signIn: async () => {
          throw new HttpError(401, 'Incorrect email or password');
        },
      }),
    );
    const wrong = await refused.app.inject({
      method: 'POST',
      url: '/login',
      headers: FORM,
      payload: 'email=a%40b.c&password=x',
    });
    expect(wrong.statusCode).toBe(401);
    expect(refused.log.error).not.toHaveBeenCalled();

    const broken = await formsApp(
      fakeAccounts({
        signOut: async () => {
          throw new Error('the database is gone');
        },
      }),
    );
    const failed = await broken.app.inject({ method: 'POST', url: '/logout', headers: FORM, payload: '' });
    expect(failed.statusCode).toBe(500);
    expect(failed.body).toBe('Something went wrong on our side. Please try again.');
    expect(broken.log.error).toHaveBeenCalledOnce();
    expect(broken.log.error.mock.calls[0]?.[0]).toBe('[forms] POST /logout failed:');
  });

  it('give the accounts no display name for a profile form posted empty (no crash)', async () => {
    const saveProfile = vi.fn(async (_token: string | undefined, name: unknown) => {
      if (typeof name !== 'string') throw new HttpError(400, 'Display name is required and must be text.');
      return {};
    });
    const { app, log } = await formsApp(fakeAccounts({ saveProfile }));
    const empty = await app.inject({ method: 'POST', url: '/profile', headers: FORM });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toBe('Display name is required and must be text.');
    expect(saveProfile).toHaveBeenCalledWith(undefined, undefined);
    expect(log.error).not.toHaveBeenCalled();
  });
});
