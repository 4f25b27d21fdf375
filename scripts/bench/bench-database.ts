// The embedded database's write cost with fsync on, and what a refused sign-in costs.
// Figures, never pass/fail; side by side in one run, so that a loaded machine weighs on both alike (check `uptime`).
//   node --import tsx scripts/bench/bench-database.ts [writes=200] [refusals=15]
// 1. Writes per second on a folder database, each its own committed transaction (as a profile save is):
//    PGlite as it was (its defaults: -F, NODEFS without fsync) against api/database/open.ts (fsync on).
// 2. Median ms of the three sign-in refusals, one argon2id verify each at OWASP's parameters: an unknown email,
//    a wrong password of a demo account (the seed's hash), of another account; and, for comparison, what the
//    demo accounts cost before, on the seed's old scrypt hash (N=2^14, node's default scrypt, as it verified).
import { scrypt, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../api/database/open.ts';
import seed from '../../api/fixtures/seed.json' with { type: 'json' };
import { Passwords } from '../../api/passwords.ts';

const writes = Number(process.argv[2] ?? 200);
const refusals = Number(process.argv[3] ?? 15);
const scratch = await mkdtemp(path.join(tmpdir(), 'campaign-web-bench-db-'));

async function timeWrites(run: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 10; i++) await run(i);
  const start = performance.now();
  for (let i = 0; i < writes; i++) await run(i);
  return writes / ((performance.now() - start) / 1000);
}

try {
  const before = await PGlite.create({ dataDir: path.join(scratch, 'before') });
  await before.exec('create table t (id int primary key, name text)');
  await before.exec(`insert into t values (1, 'x')`);
  const durable = await openDatabase(
    { kind: 'pglite', dir: path.join(scratch, 'after') },
    { migrate: true, demoData: true },
  );
  const rounds: [number, number][] = [];
  // Alternated, three rounds each, so that neither gets the quieter moment.
  for (let round = 0; round < 3; round++) {
    const a = await timeWrites((i) => before.query('update t set name = $1 where id = 1', [`n${i}`]));
    const b = await timeWrites((i) =>
      durable.db
        .updateTable('users')
        .set({ displayName: `n${i}` })
        .where('id', '=', 'u1')
        .execute(),
    );
    rounds.push([a, b]);
  }
  await before.close();
  await durable.close();
  console.log(`Committed single-row updates per second on a folder database (${writes} per round):`);
  for (const [a, b] of rounds)
    console.log(
      `  fsync off (PGlite defaults) ${a.toFixed(0).padStart(6)}/s   fsync on ${b.toFixed(0).padStart(6)}/s   ratio ${(a / b).toFixed(1)}×`,
    );

  const passwords = new Passwords();
  const other = await passwords.hash('other-password');
  const oldScrypt =
    'scrypt$b2a86f5da897b7b532f3de2399551c11$ef2e4c7e20b2b49220659ae166ca72add99888e7d58b35ae76a3da7b70f3cdce';
  const verifyScrypt = (password: string) =>
    new Promise<boolean>((resolve, reject) => {
      const [, salt = '', key = ''] = oldScrypt.split('$');
      scrypt(password, Buffer.from(salt, 'hex'), key.length / 2, (error, derived) =>
        error ? reject(error) : resolve(timingSafeEqual(derived, Buffer.from(key, 'hex'))),
      );
    });
  const cases: [string, () => Promise<unknown>][] = [
    ['unknown email', () => passwords.check('wrong', undefined)],
    ['demo account, wrong password', () => passwords.check('wrong', seed.users[0]?.passwordHash)],
    ['other account, wrong password', () => passwords.check('wrong', other)],
    ['(before: demo account on scrypt)', () => verifyScrypt('wrong')],
  ];
  const samples = cases.map(() => [] as number[]);
  await passwords.check('warm-up', undefined);
  for (let i = 0; i < refusals; i++) {
    for (const [index, [, run]] of cases.entries()) {
      const start = performance.now();
      await run();
      samples[index]?.push(performance.now() - start);
    }
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? Number.NaN;
  console.log(`\nRefused sign-in, password check only, median of ${refusals} (interleaved):`);
  for (const [index, [name]] of cases.entries())
    console.log(
      `  ${name.padEnd(34)} ${median(samples[index] ?? [])
        .toFixed(1)
        .padStart(6)} ms`,
    );
} finally {
  await rm(scratch, { recursive: true, force: true });
}
