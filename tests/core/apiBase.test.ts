// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { apiBaseFrom, DEFAULT_API_BASE } from '../../core/apiBase';

describe('the API base (core/apiBase.ts)', () => {
  it('is the same origin’s /api when VITE_API_BASE_URL says nothing', () => {
    expect(DEFAULT_API_BASE).toBe('/api');
    expect(apiBaseFrom(undefined)).toBe('/api');
    expect(apiBaseFrom('')).toBe('/api');
    expect(apiBaseFrom('   ')).toBe('/api');
    expect(apiBaseFrom(true)).toBe('/api');
  });

  it('is the variable trimmed, without its trailing slashes', () => {
    expect(apiBaseFrom(' https://api.example/v1/ ')).toBe('https://api.example/v1');
    expect(apiBaseFrom('/backend//')).toBe('/backend');
    expect(apiBaseFrom('https://api.example')).toBe('https://api.example');
  });
});
