/**
 * Limits that the browser checks before asking and the API enforces: one number each, so the form's hint and
 * the API's refusal cannot drift apart.
 */

/** RFC 5321's path limit; long enough for any real address, short enough to bound the work. */
export const EMAIL_MAX = 254;

/** Long passphrases are welcome; beyond this it is an attack on the hashing. */
export const PASSWORD_MAX = 1024;

/** The bound on a display name as typed, before trimming (the real limit is DISPLAY_NAME_MAX once trimmed). */
export const DISPLAY_NAME_INPUT_MAX = 1000;

/** A display name, trimmed, counted in code points (an emoji is one character). */
export const DISPLAY_NAME_MAX = 60;

/** What both the profile form and the API say about a display name out of bounds. */
export const DISPLAY_NAME_LENGTH_MESSAGE = `Display name must be between 1 and ${DISPLAY_NAME_MAX} characters.`;

/** The length a display name is held to: code points of the trimmed text. */
export function displayNameLength(name: string): number {
  return [...name.trim()].length;
}
