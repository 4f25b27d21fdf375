// @vitest-environment node
// Sign-in hardening: password hashing and its upgrade, session rotation, expiry, caps and pruning,
// sign-in rate limits, and the same-origin and JSON-only rules for state-changing requests.
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { hash } from '@node-rs/argon2';
import type { LimitFunction } from 'p-limit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAccounts } from '../../../api/accounts';
import { type ApiConfig, testApiConfig } from '../../../api/config';
import type { SecurityEvent } from '../../../api/logSafe';
import { OWASP_ARGON2ID, Passwords } from '../../../api/passwords';
import type { DatabaseLimit } from '../../../api/rateLimits';
import { SignInLimits, TooManyAttempts } from '../../../api/signInLimits';
import { type ApiClient, backends, useApi } from '../../support/apiHarness';

const MINUTE = 60_000;

// Sign-ins hash with argon2id at OWASP's cost, several per test: seconds on a busy 2-core machine.
vi.setConfig({ testTimeout: 30_000 });

describe.each(backends())('sign-in hardening on %s', (kind) => {
  const { database, clock, open } = useApi(kind, { startAt: Date.UTC(2026, 0, 1) });
  const storedHash = async (id: string) =>
    (
      await database()
        .db.selectFrom('users')
        .select('passwordHash')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).passwordHash;
  const sessionCount = async () =>
    Number(
      (
        await database()
          .db.selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  afterEach(() => {
    vi.useRealTimers();
  });

  describe('password hashing', () => {
    it("stores the demo accounts' passwords as argon2id at OWASP parameters, which sign in as they are", async () => {
      const api = await open();
      const before = [await storedHash('u1'), await storedHash('u2')];
      for (const stored of before) expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      await api.signIn('demo@example.com', 'demo-password');
      await api.signIn('sam@example.com', 'sam-password');
      // Nothing to upgrade: the hashes are the ones the seed has.
      expect([await storedHash('u1'), await storedHash('u2')]).toEqual(before);
    });

    it('rehashes an argon2id hash made with weaker parameters than configured', async () => {
      await database()
        .db.updateTable('users')
        .set({
          passwordHash: await hash('demo-password', { memoryCost: 19456, timeCost: 2, parallelism: 1 }),
        })
        .where('id', '=', 'u1')
        .execute();
      const config = testApiConfig();
      const api = await open({
        config: { passwords: { ...config.passwords, argon2: { ...OWASP_ARGON2ID, timeCost: 3 } } },
      });
      await api.signIn();
      expect(await storedHash('u1')).toMatch(/^\$argon2id\$v=19\$m=19456,t=3,p=1\$/);
    });

    it('never matches a stored hash that is not a well-formed argon2id one, the old scrypt format included', async () => {
      const passwords = new Passwords();
      const password = 'l\u00e9gacy';
      const salt = randomBytes(16);
      // The seed's old format, of this very password: it used to match, and must not any more.
      const scryptHash = `scrypt$${salt.toString('hex')}$${scryptSync(password, salt, 64).toString('hex')}`;
      const argon2i = await hash(password, { ...OWASP_ARGON2ID, algorithm: 1 });
      const argon2d = await hash(password, { ...OWASP_ARGON2ID, algorithm: 0 });
      for (const stored of ['', 'scrypt$', scryptHash, argon2i, argon2d, '$argon2id$nonsense', password]) {
        expect(await passwords.check(password, stored), stored).toEqual({ ok: false, needsRehash: false });
      }
      // No account: the decoy hash is checked, and even its own password matches nothing.
      expect(await passwords.check('decoy password that never matches', undefined)).toEqual({
        ok: false,
        needsRehash: false,
      });
    });

    it.each([
      ['less memory than configured', {}, { ...OWASP_ARGON2ID, memoryCost: 19457 }, true],
      ['another parallelism (fewer lanes)', {}, { ...OWASP_ARGON2ID, parallelism: 2 }, true],
      ['another parallelism (more lanes)', { parallelism: 2 }, OWASP_ARGON2ID, true],
      ['exactly the configured parameters', {}, OWASP_ARGON2ID, false],
      ['more memory and passes than configured', { memoryCost: 19457, timeCost: 3 }, OWASP_ARGON2ID, false],
    ])('asks for a rehash of an argon2 hash with %s', async (_name, made, configured, rehash) => {
      const stored = await hash('pw', { ...OWASP_ARGON2ID, algorithm: 2, ...made });
      expect(await new Passwords(configured).check('pw', stored)).toEqual({ ok: true, needsRehash: rehash });
      expect(await new Passwords(configured).check('wrong', stored)).toEqual({
        ok: false,
        needsRehash: false,
      });
    });

    describe('the upgrade of a weaker hash at sign-in', () => {
      const STRONGER = { ...OWASP_ARGON2ID, timeCost: 3 };
      /** u1 (demo@example.com) stored with today's default cost, accounts configured for a higher one. */
      const upgradingAccounts = async () => {
        await open();
        await database()
          .db.updateTable('users')
          .set({ passwordHash: await hash('demo-password', OWASP_ARGON2ID) })
          .where('id', '=', 'u1')
          .execute();
        const config = testApiConfig();
        return createAccounts({
          db: database().db,
          config: { ...config, passwords: { ...config.passwords, argon2: STRONGER } },
          now: () => clock.now,
        });
      };
      const signInDemo = (accounts: ReturnType<typeof createAccounts>) =>
        accounts.signIn({
          email: 'demo@example.com',
          password: 'demo-password',
          address: '203.0.113.7',
          previousToken: undefined,
        });

      afterEach(() => {
        vi.restoreAllMocks();
      });

      it('stores it before answering: a write that fails fails the sign-in, and no session starts', async () => {
        const accounts = await upgradingAccounts();
        // A hash the column refuses (NOT NULL): the upgrade's write fails.
        vi.spyOn(Passwords.prototype, 'hash').mockResolvedValueOnce(null as unknown as string);
        await expect(signInDemo(accounts)).rejects.toThrow();
        expect(await sessionCount()).toBe(0);
      });

      it("rewrites only that account's row, even where another row holds the very same hash", async () => {
        const accounts = await upgradingAccounts();
        const weak = await storedHash('u1');
        await database().db.updateTable('users').set({ passwordHash: weak }).where('id', '=', 'u2').execute();
        await signInDemo(accounts);
        expect(await storedHash('u1')).toMatch(/^\$argon2id\$v=19\$m=19456,t=3,p=1\$/);
        expect(await storedHash('u2')).toBe(weak);
      });

      it('leaves a hash changed while the upgrade was computed as it is: the newer password wins', async () => {
        const accounts = await upgradingAccounts();
        const changed = await hash('a newer password', STRONGER);
        const computeHash = Passwords.prototype.hash;
        vi.spyOn(Passwords.prototype, 'hash').mockImplementationOnce(async function (
          this: Passwords,
          password,
        ) {
          // The owner changes the password between the check and the upgrade's write.
          await database()
            .db.updateTable('users')
            .set({ passwordHash: changed })
            .where('id', '=', 'u1')
            .execute();
          return computeHash.call(this, password);
        });
        await signInDemo(accounts);
        expect(await storedHash('u1')).toBe(changed);
      });
    });

    it('answers a refusal for no account only once its decoy verify has finished', async () => {
      const passwords = new Passwords(OWASP_ARGON2ID, 1);
      const slots = (passwords as unknown as { limit: LimitFunction }).limit;
      expect(await passwords.check('a guess', undefined)).toEqual({ ok: false, needsRehash: false });
      // A verify still running after the answer would make refusals of unknown accounts the quick ones.
      expect([slots.activeCount, slots.pendingCount]).toEqual([0, 0]);
    });

    it('hashes off the event loop: timers keep running while several hashes are computed', async () => {
      const passwords = new Passwords(OWASP_ARGON2ID, 2);
      let ticks = 0;
      let ticking = true;
      const tick = () => {
        ticks++;
        if (ticking) setImmediate(tick);
      };
      setImmediate(tick);
      await Promise.all(Array.from({ length: 4 }, (_, i) => passwords.hash(`password ${i}`)));
      ticking = false;
      // A hash computed on the main thread would let no callback run until it finished.
      expect(ticks).toBeGreaterThan(20);
    });
  });

  describe('sessions', () => {
    it('rotates the session id at sign-in and ends the previous session', async () => {
      const api = await open();
      const first = await api.signIn();
      const second = await api.request({
        method: 'POST',
        url: '/api/session',
        cookie: first,
        payload: { email: 'sam@example.com', password: 'sam-password' },
      });
      const rotated = String(second.headers['set-cookie']).split(';')[0];
      expect(rotated).not.toBe(first);
      expect((await api.request({ url: '/api/session', cookie: first })).json()).toEqual({ user: null });
      expect((await api.request({ url: '/api/session', cookie: rotated })).json().user.id).toBe('u2');
      expect(await sessionCount()).toBe(1);
    });

    it('signs out only once the session is ended: an end that fails is an error, never a success', async () => {
      await open();
      const accounts = createAccounts({ db: database().db, config: testApiConfig(), now: () => clock.now });
      vi.spyOn(accounts.sessions, 'end').mockRejectedValueOnce(new Error('the database went away'));
      await expect(accounts.signOut('a-token')).rejects.toThrow('the database went away');
    });

    it("gives a session's user as stored, with nothing of the session mixed in", async () => {
      const api = await open();
      const token = (await api.signIn()).split('=')[1];
      const accounts = createAccounts({ db: database().db, config: testApiConfig(), now: () => clock.now });
      const stored = await database()
        .db.selectFrom('users')
        .selectAll()
        .where('id', '=', 'u1')
        .executeTakeFirstOrThrow();
      expect(await accounts.sessions.user(token)).toEqual(stored);
    });

    it('stores only a digest of the session id', async () => {
      const api = await open();
      const token = (await api.signIn()).split('=')[1] ?? '';
      const rows = await database().db.selectFrom('sessions').select('idHash').execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.idHash).not.toContain(token);
      expect(rows[0]?.idHash).toMatch(/^[A-Za-z0-9_-]{43}$/);
    });

    it('expires after 30 idle minutes, and activity keeps it alive', async () => {
      const api = await open();
      const cookie = await api.signIn();
      for (let i = 0; i < 3; i++) {
        clock.now += 29 * MINUTE;
        expect((await api.request({ url: '/api/session', cookie })).json().user, `step ${i}`).not.toBeNull();
      }
      clock.now += 30 * MINUTE;
      expect((await api.request({ url: '/api/session', cookie })).json()).toEqual({ user: null });
      expect((await api.request({ url: '/api/profile', cookie })).statusCode).toBe(401);
    });

    it('writes last_seen_at once a minute at most, and each write moves the idle limit', async () => {
      const api = await open();
      const cookie = await api.signIn();
      const signedInAt = clock.now;
      const lastSeen = async () =>
        (
          await database().db.selectFrom('sessions').select('lastSeenAt').executeTakeFirstOrThrow()
        ).lastSeenAt.getTime();
      expect(await lastSeen()).toBe(signedInAt);
      clock.now = signedInAt + MINUTE - 1;
      expect((await api.request({ url: '/api/session', cookie })).json().user).not.toBeNull();
      expect(await lastSeen()).toBe(signedInAt);
      clock.now = signedInAt + MINUTE;
      expect((await api.request({ url: '/api/session', cookie })).json().user).not.toBeNull();
      expect(await lastSeen()).toBe(signedInAt + MINUTE);
      // 30 minutes after sign-in but not after the last write: still signed in.
      clock.now = signedInAt + 30 * MINUTE + 30_000;
      expect((await api.request({ url: '/api/session', cookie })).json().user).not.toBeNull();
    });

    it('expires 12 hours after sign-in however active', async () => {
      const api = await open();
      const cookie = await api.signIn();
      const signedInAt = clock.now;
      while (clock.now + 20 * MINUTE < signedInAt + 12 * 60 * MINUTE) {
        clock.now += 20 * MINUTE;
        expect((await api.request({ url: '/api/session', cookie })).json().user).not.toBeNull();
      }
      clock.now = signedInAt + 12 * 60 * MINUTE;
      expect((await api.request({ url: '/api/session', cookie })).json()).toEqual({ user: null });
    });

    it('caps the sessions per user, ending the oldest', async () => {
      const config = testApiConfig();
      const api = await open({ config: { sessions: { ...config.sessions, maxPerUser: 3 } } });
      const cookies: string[] = [];
      for (let i = 0; i < 5; i++) {
        clock.now += 1000;
        cookies.push(await api.signIn());
      }
      const alive = [];
      for (const cookie of cookies)
        alive.push((await api.request({ url: '/api/session', cookie })).json().user !== null);
      expect(alive).toEqual([false, false, true, true, true]);
      expect(await sessionCount()).toBe(3);
    });

    it('prunes expired sessions at start-up and at sign-in', async () => {
      const api = await open();
      await api.signIn('sam@example.com', 'sam-password');
      await api.signIn();
      clock.now += 31 * MINUTE;
      await api.signIn();
      // Sign-in removed demo's idle session but not Sam's.
      expect(await sessionCount()).toBe(2);
      await open();
      expect(await sessionCount()).toBe(1);
    });
  });

  describe('sign-in rate limits', () => {
    const attempt = (api: ApiClient, email: string, password: string, remoteAddress = '203.0.113.7') =>
      api.request({ method: 'POST', url: '/api/session', payload: { email, password }, remoteAddress });
    const limitedTo = (limits: Partial<ApiConfig['signInLimits']>) => ({
      config: { signInLimits: { ...testApiConfig().signInLimits, ...limits } },
    });

    it('refuses one address that guesses one account (429, Retry-After), while the owner signs in from another', async () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(clock.now);
      const api = await open(limitedTo({ perAccount: 3 }));
      const attacker = '198.51.100.66';
      for (let i = 0; i < 3; i++)
        expect((await attempt(api, 'demo@example.com', `guess ${i}`, attacker)).statusCode).toBe(401);
      // From the attacker's address even the right password is refused: it may have guessed it.
      const limited = await attempt(api, 'DEMO@example.com', 'demo-password', attacker);
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBe(String(15 * 60));
      expect(limited.json()).toEqual({
        message: 'Too many sign-in attempts. Please wait 15 minutes and try again.',
      });
      expect(limited.headers['set-cookie']).toBeUndefined();
      // The owner, from an address with no failures, signs in while the attacker is refused.
      expect((await attempt(api, 'demo@example.com', 'demo-password', '192.0.2.10')).statusCode).toBe(200);
      expect((await attempt(api, 'demo@example.com', 'guess 4', attacker)).statusCode).toBe(429);
      // Other accounts from the attacker's address are not held back by it.
      expect((await attempt(api, 'sam@example.com', 'sam-password', attacker)).statusCode).toBe(200);

      vi.setSystemTime(clock.now + 15 * MINUTE + 1000);
      expect((await attempt(api, 'demo@example.com', 'demo-password', attacker)).statusCode).toBe(200);
    });

    it('treats unknown emails exactly like known ones', async () => {
      const api = await open(limitedTo({ perAccount: 2 }));
      const answers = [];
      for (const email of ['demo@example.com', 'nobody@example.com']) {
        for (let i = 0; i < 3; i++) {
          const res = await attempt(api, email, 'wrong', '192.0.2.1');
          answers.push([res.statusCode, res.json().message, res.headers['retry-after']]);
        }
      }
      // Retry-After counts whole seconds down on the real clock: on a busy machine the second account's
      // refusal can come a second later, so it is compared apart, to the second.
      const withoutWait = answers.map(([status, message]) => [status, message]);
      expect(withoutWait.slice(0, 3)).toEqual(withoutWait.slice(3));
      expect(answers.map(([status]) => status)).toEqual([401, 401, 429, 401, 401, 429]);
      const [known, unknown] = [answers[2]?.[2], answers[5]?.[2]].map(Number);
      expect(Math.abs((known ?? Number.NaN) - (unknown ?? Number.NaN))).toBeLessThanOrEqual(1);
      expect([answers[0]?.[2], answers[1]?.[2], answers[3]?.[2], answers[4]?.[2]]).toEqual([
        undefined,
        undefined,
        undefined,
        undefined,
      ]);
    });

    it('limits failures per client address across accounts, and a success gives its point back', async () => {
      const api = await open(limitedTo({ perAddress: 3 }));
      expect((await attempt(api, 'a@example.com', 'x')).statusCode).toBe(401);
      expect((await attempt(api, 'demo@example.com', 'demo-password')).statusCode).toBe(200);
      expect((await attempt(api, 'b@example.com', 'x')).statusCode).toBe(401);
      expect((await attempt(api, 'c@example.com', 'x')).statusCode).toBe(401);
      const limited = await attempt(api, 'sam@example.com', 'sam-password');
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await attempt(api, 'sam@example.com', 'sam-password', '203.0.113.8')).statusCode).toBe(200);
    });

    it('slows every attempt on an account guessed from many addresses, doubling to a cap, and never refuses the owner', async () => {
      const waits: number[] = [];
      const api = await open({
        ...limitedTo({ perAccount: 3, slowdown: { afterFailures: 3, baseMs: 100, maxMs: 400 } }),
        sleep: async (ms) => {
          waits.push(ms);
        },
      });
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await attempt(api, 'demo@example.com', `guess ${i}`, `198.51.100.${i}`)).statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
      expect(waits).toEqual([100, 200, 400]);
      const owner = await attempt(api, 'demo@example.com', 'demo-password', '192.0.2.77');
      expect(owner.statusCode).toBe(200);
      expect(waits).toEqual([100, 200, 400, 400]);
      // Another account is not slowed.
      expect((await attempt(api, 'sam@example.com', 'sam-password', '192.0.2.78')).statusCode).toBe(200);
      expect(waits).toHaveLength(4);
    });

    it('waits nothing below the threshold, then base × 2^(failures − threshold), capped', () => {
      const limits = new SignInLimits(database().db, {
        ...testApiConfig().signInLimits,
        slowdown: { afterFailures: 10, baseMs: 250, maxMs: 8_000 },
      });
      expect([0, 9, 10, 11, 12, 15, 16, 200].map((n) => limits.waitAfter(n))).toEqual([
        0, 0, 250, 500, 1_000, 8_000, 8_000, 8_000,
      ]);
    });

    it('words the wait in whole minutes, rounded up', () => {
      const wait = (seconds: number) => new TooManyAttempts(seconds).message;
      expect(wait(60)).toBe('Too many sign-in attempts. Please wait 1 minute and try again.');
      expect(wait(30)).toBe('Too many sign-in attempts. Please wait 1 minute and try again.');
      expect(wait(61)).toBe('Too many sign-in attempts. Please wait 2 minutes and try again.');
      expect(new TooManyAttempts(61).retryAfterSeconds).toBe(61);
    });

    it('stores the counts under the address and digests of the lower-cased email, never the email', async () => {
      const api = await open();
      expect((await attempt(api, 'Demo@Example.COM', 'wrong', '203.0.113.5')).statusCode).toBe(401);
      const rows = await database()
        .db.selectFrom('rateLimits')
        .select(['key', 'points'])
        .orderBy('key')
        .execute();
      const sha = (text: string) => createHash('sha256').update(text).digest('base64url');
      const account = sha('demo@example.com');
      expect(rows).toEqual([
        { key: `acad:${sha(`${account}\u0000203.0.113.5`)}`, points: 1 },
        { key: `acct:${account}`, points: 1 },
        { key: 'addr:203.0.113.5', points: 1 },
      ]);
      expect(JSON.stringify(rows).toLowerCase()).not.toContain('example.com');
    });

    it('starts an account and address afresh after a successful sign-in from there', async () => {
      const api = await open(limitedTo({ perAccount: 3 }));
      for (let i = 0; i < 2; i++) expect((await attempt(api, 'demo@example.com', 'x')).statusCode).toBe(401);
      expect((await attempt(api, 'demo@example.com', 'demo-password')).statusCode).toBe(200);
      const after = [];
      for (let i = 0; i < 4; i++) after.push((await attempt(api, 'demo@example.com', 'x')).statusCode);
      expect(after).toEqual([401, 401, 401, 429]);
    });

    it('starts no session when the limits cannot record the success: the sign-in fails with their error', async () => {
      await open();
      const accounts = createAccounts({ db: database().db, config: testApiConfig(), now: () => clock.now });
      const failure = new Error('the limits store went away');
      const succeeded = vi.spyOn(SignInLimits.prototype, 'succeeded').mockRejectedValueOnce(failure);
      try {
        await expect(
          accounts.signIn({
            email: 'demo@example.com',
            password: 'demo-password',
            address: '203.0.113.7',
            previousToken: undefined,
          }),
        ).rejects.toBe(failure);
        expect(await sessionCount()).toBe(0);
      } finally {
        succeeded.mockRestore();
      }
    });

    describe('each count is written before the attempt goes on', () => {
      type Limits = Record<'byAddress' | 'byAccount' | 'byAccountAndAddress', DatabaseLimit>;
      const failure = new Error('the limits store went away');
      const limitsWith = (sleep: (ms: number) => Promise<void> = async () => {}) =>
        new SignInLimits(database().db, testApiConfig().signInLimits, sleep);
      const limitOf = (limits: SignInLimits, name: keyof Limits) => (limits as unknown as Limits)[name];

      afterEach(() => {
        vi.restoreAllMocks();
      });

      it('fails an attempt whose count on the account cannot be written', async () => {
        await open();
        const limits = limitsWith();
        vi.spyOn(limitOf(limits, 'byAccount'), 'consume').mockRejectedValueOnce(failure);
        await expect(limits.take('203.0.113.7', 'demo@example.com')).rejects.toBe(failure);
      });

      it.each([
        ['byAddress', 'reward'],
        ['byAccount', 'reward'],
        ['byAccountAndAddress', 'delete'],
      ] as const)('fails a success whose %s count cannot be given back (%s)', async (name, method) => {
        await open();
        const limits = limitsWith();
        vi.spyOn(limitOf(limits, name), method).mockRejectedValueOnce(failure);
        await expect(limits.succeeded('203.0.113.7', 'demo@example.com')).rejects.toBe(failure);
      });

      it('waits out the slowdown before the attempt goes on', async () => {
        await open();
        let wake: (() => void) | undefined;
        const waits: number[] = [];
        const limits = new SignInLimits(
          database().db,
          { ...testApiConfig().signInLimits, slowdown: { afterFailures: 0, baseMs: 1000, maxMs: 1000 } },
          (ms) => {
            waits.push(ms);
            return new Promise((resolve) => {
              wake = resolve;
            });
          },
        );
        let taken = false;
        const taking = limits.take('203.0.113.7', 'demo@example.com').then((wait) => {
          taken = true;
          return wait;
        });
        await vi.waitFor(() => expect(waits).toEqual([1000]));
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(taken).toBe(false);
        wake?.();
        await expect(taking).resolves.toBe(1000);
      });
    });

    it('answers a failure of the limits store with a logged 500, not a 429', async () => {
      const errors: unknown[] = [];
      const api = await open({ log: { error: (...args: unknown[]) => errors.push(args) } });
      await database().db.schema.alterTable('rate_limits').renameTo('rate_limits_gone').execute();
      try {
        const res = await attempt(api, 'demo@example.com', 'demo-password');
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ message: 'The demo API failed unexpectedly.' });
        expect(res.headers['retry-after']).toBeUndefined();
        expect(errors).toHaveLength(1);
      } finally {
        await database().db.schema.alterTable('rate_limits_gone').renameTo('rate_limits').execute();
      }
    });

    it('sweeps rate-limit rows an hour past their window at start-up, and keeps the others', async () => {
      const wall = Date.now();
      await database()
        .db.insertInto('rateLimits')
        .values([
          { key: 'addr:old', points: 5, expire: wall - 2 * 60 * MINUTE },
          { key: 'addr:recent', points: 5, expire: wall - 30 * MINUTE },
          { key: 'addr:live', points: 5, expire: wall + 10 * MINUTE },
        ])
        .execute();
      await open();
      const keys = await database().db.selectFrom('rateLimits').select('key').orderBy('key').execute();
      expect(keys.map((row) => row.key)).toEqual(['addr:live', 'addr:recent']);
    });

    it('sweeps the server’s flood counts whose window is over at start-up, and keeps the live ones', async () => {
      const wall = Date.now();
      await database()
        .db.insertInto('requestLimits')
        .values([
          { key: 'requests:api 192.0.2.1', points: 5, expire: wall - MINUTE },
          { key: 'requests:api 192.0.2.2', points: 5, expire: wall + MINUTE },
        ])
        .execute();
      await open();
      const keys = await database().db.selectFrom('requestLimits').select('key').orderBy('key').execute();
      expect(keys.map((row) => row.key)).toEqual(['requests:api 192.0.2.2']);
    });

    it('counts in the database, so every server on it shares the limits', async () => {
      const one = await open(limitedTo({ perAccount: 2 }));
      const two = await open(limitedTo({ perAccount: 2 }));
      expect((await attempt(one, 'demo@example.com', 'x')).statusCode).toBe(401);
      expect((await attempt(two, 'demo@example.com', 'x')).statusCode).toBe(401);
      expect((await attempt(one, 'demo@example.com', 'demo-password')).statusCode).toBe(429);
      expect((await attempt(two, 'demo@example.com', 'demo-password', '192.0.2.200')).statusCode).toBe(200);
    });

    it('holds under a burst of parallel guesses from one address', async () => {
      const api = await open(limitedTo({ perAccount: 3 }));
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => attempt(api, 'demo@example.com', `guess ${i}`)),
      );
      const statuses = answers.map((res) => res.statusCode).sort();
      expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
    });

    it('writes one security event per failure, refusal and refused origin: address and account digest, never the email', async () => {
      const events: SecurityEvent[] = [];
      const api = await open({
        ...limitedTo({ perAccount: 1 }),
        log: { error: () => {}, security: (event) => events.push(event) },
      });
      await attempt(api, 'Demo@Example.com', 'wrong', '203.0.113.44');
      await attempt(api, 'demo@example.com', 'wrong', '203.0.113.44');
      await attempt(api, 'demo@example.com', 'demo-password', '192.0.2.45');
      await api.request({
        method: 'POST',
        url: '/api/session',
        headers: { origin: 'https://evil.example\u001b[2K', 'sec-fetch-site': 'cross-site' },
        payload: { email: 'demo@example.com', password: 'demo-password' },
        remoteAddress: '203.0.113.46',
      });
      const account = createHash('sha256').update('demo@example.com').digest('base64url');
      expect(events).toEqual([
        { event: 'sign-in.failed', address: '203.0.113.44', account },
        { event: 'sign-in.refused', address: '203.0.113.44', account },
        { event: 'origin.refused', address: '203.0.113.46', origin: 'https://evil.example\\x1b[2K' },
      ]);
      expect(JSON.stringify(events)).not.toMatch(/example\.com|demo-password|wrong/);
    });
  });

  describe('cross-site requests', () => {
    const signInBody = JSON.stringify({ email: 'demo@example.com', password: 'demo-password' });

    it('refuses a text/plain or form-encoded sign-in (what a cross-site form can send)', async () => {
      const api = await open();
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        const res = await api.request({
          method: 'POST',
          url: '/api/session',
          headers: { 'content-type': type },
          payload: signInBody,
        });
        expect(res.statusCode, type).toBe(415);
        expect(res.json()).toEqual({
          message: 'Send the request body as JSON (Content-Type: application/json).',
        });
        expect(res.headers['set-cookie']).toBeUndefined();
      }
    });

    it('refuses state-changing requests from another origin or with no origin at all', async () => {
      const api = await open();
      const cookie = await api.signIn();
      const cases: Record<string, string>[] = [
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        { origin: 'https://evil.example' },
        { origin: 'http://localhost.evil.example' },
        { origin: 'null' },
        { 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
        {},
      ];
      for (const headers of cases) {
        const clean = { origin: undefined, 'sec-fetch-site': undefined, ...headers };
        for (const [method, url, payload] of [
          ['POST', '/api/session', { email: 'sam@example.com', password: 'sam-password' }],
          ['PATCH', '/api/profile', { displayName: 'Hijacked' }],
          ['DELETE', '/api/session', undefined],
        ] as const) {
          const res = await api.request({
            method,
            url,
            cookie,
            headers: clean,
            ...(payload ? { payload } : {}),
          });
          expect(res.statusCode, `${method} ${JSON.stringify(headers)}`).toBe(403);
          expect(res.json().message).toBe(
            'This request must come from the app itself (cross-origin requests are refused).',
          );
        }
      }
      expect((await api.request({ url: '/api/profile', cookie })).json().profile.displayName).toBe(
        'Demo User',
      );
    });

    it('accepts a same-origin Origin without Sec-Fetch-Site, and configured public origins only', async () => {
      const api = await open();
      const plain = await api.request({
        method: 'POST',
        url: '/api/session',
        headers: { 'sec-fetch-site': undefined, origin: 'http://localhost' } as unknown as Record<
          string,
          string
        >,
        payload: { email: 'demo@example.com', password: 'demo-password' },
      });
      expect(plain.statusCode).toBe(200);
      // Sec-Fetch-Site alone says same-origin (a browser that sends no Origin on this request).
      const siteOnly = await api.request({
        method: 'POST',
        url: '/api/session',
        headers: { 'sec-fetch-site': 'same-origin', origin: undefined },
        payload: { email: 'demo@example.com', password: 'demo-password' },
      });
      expect(siteOnly.statusCode).toBe(200);

      const proxied = await open({ config: { publicOrigin: 'https://campaigns.example' } });
      const from = (origin: string) =>
        proxied.request({
          method: 'POST',
          url: '/api/session',
          headers: { origin, 'sec-fetch-site': 'same-origin' },
          payload: { email: 'sam@example.com', password: 'sam-password' },
        });
      expect((await from('http://localhost')).statusCode).toBe(403);
      expect((await from('https://campaigns.example')).statusCode).toBe(200);
    });
  });

  describe('cookie over HTTPS', () => {
    it('is Secure and __Host- prefixed when configured, and the plain name is ignored', async () => {
      const api = await open({ config: { secureCookie: true } });
      const res = await api.request({
        method: 'POST',
        url: '/api/session',
        payload: { email: 'demo@example.com', password: 'demo-password' },
      });
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43}; /);
      expect(cookie).toContain('Secure');
      expect(cookie).toContain('Path=/');
      expect(cookie).not.toContain('Domain');
      const pair = cookie.split(';')[0] ?? '';
      expect((await api.request({ url: '/api/session', cookie: pair })).json().user.id).toBe('u1');
      const plain = pair.replace('__Host-sid', 'sid');
      expect((await api.request({ url: '/api/session', cookie: plain })).json()).toEqual({ user: null });
    });
  });
});
