/**
 * Text that crosses the report trust boundary: what a browser's report may name (build, route, error, event
 * types), as the browser's reporter makes it sendable (src/platform/reportScrub.ts), the API refuses it
 * (api/reports.ts) and the report tools print it (scripts/reports/). One definition, so the three cannot drift.
 *
 * No browser puts a control character (C0, DEL, C1), a lone surrogate, a line or paragraph separator, or a
 * bidirectional control in a build id, a path or an error message the app shows: such text is a forgery or an
 * attack (a terminal escape sequence, a "Trojan Source" reordering, a line break that ends a comment).
 */

/** The character class of what is refused, as a RegExp source for the `u` flag (Ajv compiles with it). */
export const UNSAFE_TEXT_CLASS =
  '\\p{Cc}\\p{Cs}\\p{Zl}\\p{Zp}\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069';

/** A JSON Schema `pattern` for text with none of the above. */
export const SAFE_TEXT_PATTERN = `^[^${UNSAFE_TEXT_CLASS}]*$`;

const UNSAFE = new RegExp(`[${UNSAFE_TEXT_CLASS}]`, 'gu');

/** Whether `text` holds any character a report may not carry. */
export function hasUnsafeText(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

/**
 * `text` as a report may carry it: whitespace controls (tab, newline) become spaces, every other refused
 * character becomes U+FFFD, so what the reporter sends is never refused for its text.
 */
export function sendableText(text: string): string {
  return text.replace(UNSAFE, (char) => (/\s/u.test(char) ? ' ' : '\uFFFD'));
}

/**
 * `text` for a terminal or a log: each refused character shown as a visible escape (`\x1b`, `\u202e`), so an
 * escape sequence, a bidi override or a line break stored in a report prints as characters, never acts.
 */
export function visibleText(text: string): string {
  return text.replace(UNSAFE, (char) => {
    const code = char.codePointAt(0) ?? 0;
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * A build's id as the build makes it (build/buildManifest.ts): base-36 milliseconds, a dash, 8 hex digits; `dev`
 * under the dev server. A report's build id must look like one.
 */
export const BUILD_ID_PATTERN = '^(?:dev|[0-9a-z]{1,12}-[0-9a-f]{8})$';

export function newBuildId(now: number, randomHex8: string): string {
  return `${now.toString(36)}-${randomHex8}`;
}
