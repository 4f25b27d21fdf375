import type { Kysely } from 'kysely';

export interface Tables {
  sessions: { id: string; userId: string; lastSeenAt: number };
}

/** The user of session `id` when it was last used after `idleCutoff`: an idle session is over. */
export async function userOfSession(
  db: Kysely<Tables>,
  id: string,
  idleCutoff: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('sessions')
    .select('userId')
    .where('id', '=', id)
    .where('lastSeenAt', '>', idleCutoff)
    .executeTakeFirst();
  return row?.userId;
}
