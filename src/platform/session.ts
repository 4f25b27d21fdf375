import { fromPromise } from 'xstate';
import type { Profile, PublicUser } from '../../api/types';
import type { SessionUser } from '../../machines/session/session.machine';
import { sessionMachine } from '../../machines/session/session.machine';
import { apiRequest } from './api';

/** The session machine wired to the demo API. */
export const browserSessionMachine = sessionMachine.provide({
  actors: {
    fetchSession: fromPromise(async ({ signal }) => {
      const body = await apiRequest<{ user: PublicUser | null }>('/session', { signal });
      return body.user;
    }),
    signIn: fromPromise<SessionUser, { email: string; password: string }>(async ({ input, signal }) => {
      const body = await apiRequest<{ user: PublicUser }>('/session', {
        method: 'POST',
        body: { email: input.email, password: input.password },
        signal,
      });
      return body.user;
    }),
    signOut: fromPromise(async ({ signal }) => {
      await apiRequest<unknown>('/session', { method: 'DELETE', signal });
    }),
    saveProfile: fromPromise<SessionUser, { displayName: string }>(async ({ input, signal }) => {
      const body = await apiRequest<{ profile: Profile }>('/profile', {
        method: 'PATCH',
        body: { displayName: input.displayName },
        signal,
      });
      return body.profile;
    }),
  },
});
