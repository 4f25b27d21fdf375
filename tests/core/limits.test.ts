// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { DISPLAY_NAME_LENGTH_MESSAGE, DISPLAY_NAME_MAX, displayNameLength } from '../../core/limits';

describe('the display-name limit (core/limits.ts)', () => {
  it('is 60 characters, and the message says so', () => {
    expect(DISPLAY_NAME_MAX).toBe(60);
    expect(DISPLAY_NAME_LENGTH_MESSAGE).toBe('Display name must be between 1 and 60 characters.');
  });

  it('counts code points of the trimmed name: an emoji is one character, surrounding spaces none', () => {
    expect(displayNameLength('  Ada  ')).toBe(3);
    expect(displayNameLength('🌻'.repeat(60))).toBe(60);
    expect(displayNameLength('   ')).toBe(0);
  });
});
