import { describe, expect, it } from 'vitest';
import { matchRoute, parseLocation } from '../../../core/routes';
import { auth, guest, routeGuards, runGuards, UnknownGuardError } from '../../../machines/app/app.navigation';
import type { GuardVerdict, RouteGuard } from '../../../machines/app/app.setup';

function inputFor(target: string, signedIn: boolean) {
  const to = parseLocation(target);
  if (!to) throw new Error(`bad target ${target}`);
  return { to, match: matchRoute(to.pathname), signedIn };
}

describe('auth (global)', () => {
  it('sends a signed-out visitor of a protected route to sign in with the full path', () => {
    expect(auth(inputFor('/home?x=1#y', false))).toEqual({
      type: 'redirect',
      to: '/login?redirect=%2Fhome%3Fx%3D1%23y',
    });
  });
  it('lets signed-in users and public routes through', () => {
    expect(auth(inputFor('/home', true))).toEqual({ type: 'allow' });
    expect(auth(inputFor('/campaign/1', false))).toEqual({ type: 'allow' });
    expect(auth(inputFor('/no/such/page', false))).toEqual({ type: 'allow' });
  });
});

describe('guest (on /login)', () => {
  it('lets signed-out users sign in', () => {
    expect(guest(inputFor('/login?redirect=%2Fprofile', false))).toEqual({ type: 'allow' });
  });
  it('sends signed-in users to the safe return-to, else /home', () => {
    expect(guest(inputFor('/login?redirect=%2Fprofile', true))).toEqual({ type: 'redirect', to: '/profile' });
    expect(guest(inputFor('/login?redirect=%2F%2Fevil.example', true))).toEqual({
      type: 'redirect',
      to: '/home',
    });
    expect(guest(inputFor('/login', true))).toEqual({ type: 'redirect', to: '/home' });
  });
});

describe('runGuards', () => {
  it('runs in order and stops at the first verdict that is not allow', () => {
    const calls: string[] = [];
    const recording =
      (name: string, verdict: GuardVerdict): RouteGuard =>
      () => {
        calls.push(name);
        return verdict;
      };
    const registry = {
      a: recording('a', { type: 'allow' }),
      b: recording('b', { type: 'abort' }),
      c: recording('c', { type: 'allow' }),
    };
    expect(runGuards(['a', 'b', 'c'], registry, inputFor('/', false))).toEqual({ type: 'abort' });
    expect(calls).toEqual(['a', 'b']);
  });
  it('refuses an unregistered name before running anything, naming it', () => {
    expect(() => runGuards(['auth', 'nope'], routeGuards, inputFor('/', false))).toThrow(UnknownGuardError);
    expect(() => runGuards(['nope'], routeGuards, inputFor('/', false))).toThrow(
      "Unknown route middleware: 'nope'.",
    );
  });
  it('does not mistake inherited object keys for guards', () => {
    expect(() => runGuards(['toString'], routeGuards, inputFor('/', false))).toThrow(
      "Unknown route middleware: 'toString'.",
    );
  });
});
