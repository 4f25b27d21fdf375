/**
 * Limits on the shape of a JSON request body that hold before anything recursive touches it. JSON.parse,
 * validation, Kysely's plugins and PostgreSQL all recurse or have limits of their own; a body nested thousands
 * deep, or holding text PostgreSQL cannot store, must be a 400, never a stack overflow or a database error (500).
 */

/** Deeper bodies are refused; the deepest request of this API (a report's events) nests about 8. */
export const MAX_JSON_DEPTH = 16;

/** Whether the JSON text nests arrays and objects deeper than `max`: one pass over the text, no recursion. */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

/**
 * Where the first text PostgreSQL cannot store sits in a parsed body (a key or a string holding NUL or half a
 * surrogate pair), as a dotted path (`state.navigation`, `events.3.to`); undefined when there is none. Walks
 * with its own stack: the depth was bounded by the parser, but nothing here relies on it.
 */
export function findUnstorableText(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [current, path] = stack.pop() as [unknown, string];
    if (typeof current === 'string') {
      if (isUnstorable(current)) return path;
    } else if (Array.isArray(current)) {
      current.forEach((item, index) => {
        stack.push([item, join(path, String(index))]);
      });
    } else if (typeof current === 'object' && current !== null) {
      for (const [key, item] of Object.entries(current)) {
        const at = join(path, key);
        if (isUnstorable(key)) return at;
        stack.push([item, at]);
      }
    }
  }
  return undefined;
}

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

function isUnstorable(text: string): boolean {
  return text.includes('\u0000') || !text.isWellFormed();
}
