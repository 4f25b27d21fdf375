import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: Kysely's documented type for migrations (see 0001_initial.ts).
type AnyDb = Kysely<any>;

/**
 * The hashes 0002_seed wrote for the demo accounts (scrypt at N=2^14, below OWASP's minimum) and the argon2id
 * hashes of the same passwords at OWASP's parameters that replace them, as api/fixtures/seed.json now has them.
 * Frozen here: this migration must do the same thing whatever the seed file says later.
 */
const REPLACED = [
  {
    id: 'u1',
    scrypt:
      'scrypt$b2a86f5da897b7b532f3de2399551c11$ef2e4c7e20b2b49220659ae166ca72add99888e7d58b35ae76a3da7b70f3cdce',
    argon2id:
      '$argon2id$v=19$m=19456,t=2,p=1$g7rLP1T1YNkkTh5krKZ+cg$viMFq6aO0zLpkM/gp1lI5ESHNlxfCKbH4QaAcPYLo3s',
  },
  {
    id: 'u2',
    scrypt:
      'scrypt$27f7d89e13ba13cf304e7ce420256575$4de7b850e1dafbc5ca6038d790330875cf696df94c9c03cda90f6c3b510b6b82',
    argon2id:
      '$argon2id$v=19$m=19456,t=2,p=1$uT+ZveYNHSvDYVUim8X8kg$Sck4TjH01Dcdxb0uzV9DqVhM1O4pE1CmMyfeIv5inZU',
  },
] as const;

/**
 * The server no longer verifies scrypt (a wrong password for a scrypt account took 41 ms against 16 ms for any
 * other refusal, which told old accounts apart). Only a hash still equal to the seed's is replaced: a demo
 * account whose password was changed, or that a sign-in already upgraded, keeps its own.
 */
export async function up(db: AnyDb): Promise<void> {
  for (const { id, scrypt, argon2id } of REPLACED) {
    await db
      .updateTable('users')
      .set({ password_hash: argon2id })
      .where('id', '=', id)
      .where('password_hash', '=', scrypt)
      .execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  for (const { id, scrypt, argon2id } of REPLACED) {
    await db
      .updateTable('users')
      .set({ password_hash: scrypt })
      .where('id', '=', id)
      .where('password_hash', '=', argon2id)
      .execute();
  }
}
