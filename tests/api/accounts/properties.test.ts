// @vitest-environment node
// Arbitrary text at every field of the account routes, through the API: the answer is one of the statuses the
// routes promise (never a 500), and a refused request writes nothing (users and sessions counted around it).
import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it, vi } from 'vitest';
import { backends, useApi } from '../../support/apiHarness';

// Each run that passes the checks hashes with argon2id; few runs, bounded time.
vi.setConfig({ testTimeout: 240_000 });

const ALLOWED = [200, 201, 204, 400, 409, 413, 415, 429];

/** Text of every kind: short and long, any code unit (lone surrogates, NUL, bidi controls), or a plausible value. */
const anyText = (plausible: string) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({
      unit: fc.constantFrom('a', 'Ａ', '\u202e', '\u0000', '\ud800', '@', '.', ' ', 'é'),
      maxLength: 300,
    }),
    fc.constant(plausible),
    fc.constant(''),
  );

describe.each(backends())('account routes take any text on %s', (kind) => {
  const { database, open } = useApi(kind);
  const counts = async () => {
    const row = await sql<{ users: string; sessions: string }>`
      select (select count(*) from users) as users, (select count(*) from sessions) as sessions`.execute(
      database().db,
    );
    return `${row.rows[0]?.users}/${row.rows[0]?.sessions}`;
  };

  it('POST /api/account: never a 500, and a refusal writes nothing', async () => {
    const api = await open({ config: { signUpLimits: { perAddress: 1000, windowSeconds: 3600 } } });
    await fc.assert(
      fc.asyncProperty(
        anyText('someone@example.com'),
        anyText('Some One'),
        anyText('a long enough passphrase'),
        async (email, displayName, password) => {
          const before = await counts();
          const res = await api.request({
            method: 'POST',
            url: '/api/account',
            payload: { email, displayName, password },
          });
          expect(ALLOWED).toContain(res.statusCode);
          if (res.statusCode >= 400) expect(await counts()).toBe(before);
          else
            await database()
              .db.deleteFrom('users')
              .where('email', '=', email.trim().normalize('NFKC'))
              .execute();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('PUT /api/account/password and DELETE /api/account: never a 500, and a refusal writes nothing', async () => {
    const api = await open();
    const cookie = await api.signIn();
    await fc.assert(
      fc.asyncProperty(anyText('demo-password'), anyText('x'), async (current, next) => {
        const before = await counts();
        const change = await api.request({
          method: 'PUT',
          url: '/api/account/password',
          payload: { currentPassword: current, newPassword: next },
          cookie,
        });
        expect(ALLOWED).toContain(change.statusCode);
        if (change.statusCode >= 400) expect(await counts()).toBe(before);
        // A wrong password for a deletion: demo@example.com runs public campaigns, so a right one is a 409.
        const remove = await api.request({
          method: 'DELETE',
          url: '/api/account',
          payload: { password: next },
          cookie,
        });
        expect(ALLOWED).toContain(remove.statusCode);
        expect(await counts()).toBe(before);
      }),
      { numRuns: 25 },
    );
  });
});
