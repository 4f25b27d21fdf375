// @vitest-environment happy-dom
// The session machine's actors as src/platform/session.ts wires them to the demo API: what each resolves to
// once the API has answered, and that an API error fails the actor rather than passing for success.
import { describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, createActor, toPromise } from 'xstate';
import { browserSessionMachine } from '../src/platform/session';

const user = { id: 1, email: 'demo@example.com', displayName: 'Demo' };

/** The API answering every request with `status` and `body`, after a turn of the event loop. */
function apiAnswers(status: number, body: unknown) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return Response.json(body, { status });
  });
}

function run(name: 'fetchSession' | 'signIn' | 'signOut' | 'saveProfile', input?: unknown) {
  const logic = browserSessionMachine.implementations.actors[name] as AnyActorLogic;
  const actor = createActor(logic, { input });
  const done = toPromise(actor);
  actor.start();
  return done;
}

describe('the session actors on the demo API', () => {
  it('fetchSession resolves to the signed-in user, or null', async () => {
    apiAnswers(200, { user });
    await expect(run('fetchSession')).resolves.toEqual(user);
    apiAnswers(200, { user: null });
    await expect(run('fetchSession')).resolves.toBeNull();
  });

  it('signIn sends the credentials and resolves to the user', async () => {
    const fetch = apiAnswers(200, { user });
    await expect(run('signIn', { email: 'demo@example.com', password: 'pw' })).resolves.toEqual(user);
    const [, init] = fetch.mock.calls[0] ?? [];
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ email: 'demo@example.com', password: 'pw' });
  });

  it('signOut fails when the API refuses, so the machine does not forget a session that is still there', async () => {
    apiAnswers(204, null);
    await expect(run('signOut')).resolves.toBeUndefined();
    apiAnswers(500, { error: { message: 'Something went wrong' } });
    await expect(run('signOut')).rejects.toBeDefined();
  });

  it('saveProfile resolves to the saved profile', async () => {
    apiAnswers(200, { profile: { ...user, displayName: 'New name' } });
    await expect(run('saveProfile', { displayName: 'New name' })).resolves.toEqual({
      ...user,
      displayName: 'New name',
    });
  });
});
