import { createActorContext, useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import { appMachine } from '../../machines/app.machine';
import type { sessionMachine } from '../../machines/session.machine';

/** The root actor, provided once by `src/main.tsx` with the browser's implementations. */
export const AppActor = createActorContext(appMachine);

type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** Reads a slice of the session child; `undefined` only in the instant before it starts. */
export function useSession<T>(selector: (snapshot: SessionSnapshot) => T): T | undefined {
  const session = AppActor.useSelector((snapshot) => snapshot.children.session);
  return useSelector(session, (snapshot) => (snapshot ? selector(snapshot) : undefined));
}

export function useSessionRef() {
  return AppActor.useSelector((snapshot) => snapshot.children.session);
}
