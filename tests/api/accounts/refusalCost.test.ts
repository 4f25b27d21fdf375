// @vitest-environment node
// A refused sign-in costs the same work whoever it is for: an unknown email, a wrong password for a
// demo account, and one for an account that signed up all run exactly one argon2id verify at the configured
// parameters. The seed's accounts used to hash with scrypt, a different cost that told them apart (41 ms
// against 16). Structural, not timed: a spy on the argon2 binding counts and reads each verify.
import * as argon2 from '@node-rs/argon2';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { OWASP_ARGON2ID, Passwords } from '../../../api/passwords';
import { type ApiClient, backends, useApi } from '../../support/apiHarness';

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, verify: vi.fn(real.verify), hash: vi.fn(real.hash) };
});

vi.setConfig({ testTimeout: 30_000 });

describe.each(backends())('refused sign-ins on %s', (kind) => {
  const { database, open } = useApi(kind);
  let api: ApiClient;

  beforeEach(async () => {
    api = await open();
    await database()
      .db.insertInto('users')
      .values({
        id: 'u-other',
        email: 'other@example.com',
        emailKey: 'other@example.com',
        displayName: 'Other',
        passwordHash: await new Passwords().hash('other-password'),
      })
      .execute();
    // An account still stored in the seed's old scrypt format (0005 replaces it; this one is not the seed's).
    await database()
      .db.updateTable('users')
      .set({ passwordHash: `scrypt$${'ab'.repeat(16)}$${'cd'.repeat(32)}` })
      .where('id', '=', 'u2')
      .execute();
  });

  /** The argon2 work one refused sign-in did: the parameters of each hash it verified, and hashes made. */
  async function refusal(email: string, password: string) {
    vi.mocked(argon2.verify).mockClear();
    vi.mocked(argon2.hash).mockClear();
    const res = await api.request({ method: 'POST', url: '/api/session', payload: { email, password } });
    expect(res.statusCode).toBe(401);
    return {
      verified: vi.mocked(argon2.verify).mock.calls.map(([stored]) => {
        const { algorithm, memoryCost, timeCost, parallelism } = argon2.parseOptions(String(stored));
        return { algorithm, memoryCost, timeCost, parallelism };
      }),
      hashed: vi.mocked(argon2.hash).mock.calls.length,
    };
  }

  it('runs one argon2id verify at the configured parameters for each of the three, and for a scrypt hash', async () => {
    const configured = [{ algorithm: 2, ...OWASP_ARGON2ID }];
    // The first refusal of an unknown email makes the decoy hash, once per process.
    await refusal('nobody@example.com', 'whatever');
    const cases = [
      await refusal('nobody@example.com', 'whatever'),
      await refusal('demo@example.com', 'wrong-password'),
      await refusal('other@example.com', 'wrong-password'),
      await refusal('sam@example.com', 'sam-password'),
    ];
    expect(cases).toEqual([
      { verified: configured, hashed: 0 },
      { verified: configured, hashed: 0 },
      { verified: configured, hashed: 0 },
      { verified: configured, hashed: 0 },
    ]);
  });
});
