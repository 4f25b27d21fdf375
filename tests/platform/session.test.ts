// @vitest-environment happy-dom
// The session machine's actors as src/platform/session.ts wires them to the demo API: what each resolves to
// once the API has answered, and that an API error fails the actor rather than passing for success.
import { describe, expect, it, vi } from 'vitest';
import { type AnyActorLogic, createActor, toPromise } from 'xstate';
import { config } from '../../src/config';
import { browserSessionMachine } from '../../src/platform/session';

const user = { id: 1, email: 'demo@example.com', displayName: 'Demo' };

/** The API answering every request with `status` and `body`, after a turn of the event loop. */
function apiAnswers(status: number, body: unknown) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return Response.json(body, { status });
  });
}

type ActorName = 'fetchSession' | 'signIn' | 'signOut' | 'saveProfile';

function start(name: ActorName, input?: unknown) {
  const logic = browserSessionMachine.implementations.actors[name] as AnyActorLogic;
  const actor = createActor(logic, { input });
  const done = toPromise(actor);
  actor.start();
  return { actor, done };
}

function run(name: ActorName, input?: unknown) {
  return start(name, input).done;
}

/** What the actor asked the API: method, URL and JSON body. */
function requestOf(fetch: ReturnType<typeof apiAnswers>, index = 0) {
  const [url, init] = fetch.mock.calls[index] ?? [];
  return {
    method: init?.method,
    url: String(url),
    body: init?.body ? JSON.parse(String(init.body)) : undefined,
  };
}

describe('the session actors on the demo API', () => {
  it('fetchSession asks the API who is signed in, and resolves to the user, or null', async () => {
    const fetch = apiAnswers(200, { user });
    await expect(run('fetchSession')).resolves.toEqual(user);
    expect(requestOf(fetch)).toEqual({ method: 'GET', url: `${config.apiBaseUrl}/session`, body: undefined });
    apiAnswers(200, { user: null });
    await expect(run('fetchSession')).resolves.toBeNull();
  });

  it('signIn sends the credentials and resolves to the user', async () => {
    const fetch = apiAnswers(200, { user });
    await expect(run('signIn', { email: 'demo@example.com', password: 'pw' })).resolves.toEqual(user);
    expect(requestOf(fetch)).toEqual({
      method: 'POST',
      url: `${config.apiBaseUrl}/session`,
      body: { email: 'demo@example.com', password: 'pw' },
    });
  });

  it('signOut fails when the API refuses, so the machine does not forget a session that is still there', async () => {
    const fetch = apiAnswers(204, null);
    await expect(run('signOut')).resolves.toBeUndefined();
    expect(requestOf(fetch)).toEqual({
      method: 'DELETE',
      url: `${config.apiBaseUrl}/session`,
      body: undefined,
    });
    apiAnswers(500, { error: { message: 'Something went wrong' } });
    await expect(run('signOut')).rejects.toBeDefined();
  });

  it('saveProfile resolves to the saved profile', async () => {
    const fetch = apiAnswers(200, { profile: { ...user, displayName: 'New name' } });
    await expect(run('saveProfile', { displayName: 'New name' })).resolves.toEqual({
      ...user,
      displayName: 'New name',
    });
    expect(requestOf(fetch)).toEqual({
      method: 'PATCH',
      url: `${config.apiBaseUrl}/profile`,
      body: { displayName: 'New name' },
    });
  });

  it.each([
    ['fetchSession', undefined],
    ['signIn', { email: 'demo@example.com', password: 'pw' }],
    ['signOut', undefined],
    ['saveProfile', { displayName: 'New name' }],
  ] as const)('%s cancels its request when the machine stops it', async (name, input) => {
    const fetch = apiAnswers(200, {});
    const { actor, done } = start(name, input);
    done.catch(() => {});
    const signal = fetch.mock.calls[0]?.[1]?.signal;
    expect(signal?.aborted).toBe(false);
    actor.stop();
    expect(signal?.aborted).toBe(true);
  });
});
