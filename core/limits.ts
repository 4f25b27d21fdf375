/**
 * Limits that the browser checks before asking and the API enforces: one number each, so the form's hint and
 * the API's refusal cannot drift apart.
 */

/** A display name, trimmed, counted in code points (an emoji is one character). */
export const DISPLAY_NAME_MAX = 60;

/** What both the profile form and the API say about a display name out of bounds. */
export const DISPLAY_NAME_LENGTH_MESSAGE = `Display name must be between 1 and ${DISPLAY_NAME_MAX} characters.`;

/** The length a display name is held to: code points of the trimmed text. */
export function displayNameLength(name: string): number {
  return [...name.trim()].length;
}
