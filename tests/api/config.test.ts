// @vitest-environment node
// Defaults of the API's configuration that no other test pins (api/config.ts): the session cookie is `Secure` only
// for an https public origin, and the tests' own configuration is an in-memory PGlite with everything else at
// its defaults. (The rest of readApiConfig is in tests/server.database.test.ts.)
import { describe, expect, it } from 'vitest';
import { readApiConfig, testApiConfig } from '../../api/config';

describe('the API configuration', () => {
  it('keeps the session cookie without `Secure` for a plain http public origin', () => {
    expect(readApiConfig({ PUBLIC_ORIGIN: 'http://localhost:8080' }).secureCookie).toBe(false);
    expect(readApiConfig({ PUBLIC_ORIGIN: 'https://b.example' }).secureCookie).toBe(true);
  });

  it('gives tests an in-memory PGlite and the defaults, with their overrides on top', () => {
    const config = testApiConfig({ secureCookie: true });
    expect(config.database).toEqual({ kind: 'pglite' });
    expect(config.secureCookie).toBe(true);
    expect(config.sessions).toEqual(readApiConfig({}).sessions);
  });
});
