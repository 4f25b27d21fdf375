import type { IconifyIcon, IconifyJSON } from '@iconify/types';
import { getIconData, matchIconName } from '@iconify/utils';
import { config } from '../config';
import { parseIconBody } from './iconSvg';
import { bundledIcons } from './icons.bundle';

/** What an `<Icon>` can show right now. */
export type IconState =
  | { readonly status: 'loaded'; readonly data: IconifyIcon }
  | { readonly status: 'loading' }
  | { readonly status: 'missing' };

const LOADING: IconState = Object.freeze({ status: 'loading' });
const MISSING: IconState = Object.freeze({ status: 'missing' });

/** The part of a fetch `Response` the loader reads, so tests can answer with plain objects. */
export interface IconFetchResponse {
  readonly ok: boolean;
  readonly status: number;
  json(): Promise<unknown>;
}

export interface IconLoaderOptions {
  /** Same-origin endpoint: `{endpoint}/{prefix}.json?icons=a,b`. */
  readonly endpoint: string;
  /** The public Iconify API, same path shape, asked when the endpoint fails. */
  readonly fallbackEndpoint: string;
  readonly fetchTimeoutMs: number;
  readonly maxUrlLength: number;
  readonly fetch: (url: string, init: { signal: AbortSignal }) => Promise<IconFetchResponse>;
  readonly setTimeout: (callback: () => void, ms: number) => unknown;
  readonly clearTimeout: (handle: unknown) => void;
  /** Calls `flush` once the current frame's icons have all asked, so that they share one request. */
  readonly scheduleBatch: (flush: () => void) => void;
  /** Icon sets known without any request (the build inlines the app's own icons). */
  readonly preloaded?: readonly IconifyJSON[];
  readonly log?: Pick<Console, 'warn'>;
}

export interface IconLoader {
  /** The icon's current state; the same object until it changes, as `useSyncExternalStore` needs. */
  state(name: string): IconState;
  /** Asks for the icon unless it is known or on its way. Never throws and never rejects. */
  request(name: string): void;
  /** Called after any icon changes state. */
  subscribe(listener: () => void): () => void;
}

class IconRequestError extends Error {}

function isIconSet(value: unknown, prefix: string): value is IconifyJSON {
  if (typeof value !== 'object' || value === null) return false;
  const set = value as Partial<IconifyJSON>;
  return set.prefix === prefix && typeof set.icons === 'object' && set.icons !== null;
}

/**
 * Loads Iconify icons the way the spec's modules do, without their defects: icons asked for in the same frame
 * go out as one request per collection (split when the URL would pass `maxUrlLength`); a request that has
 * not answered within `fetchTimeoutMs`, fails on the network, answers with a non-2xx status (including
 * nuxt/icon's 404 dead end) or with something that is not an icon set is asked again of `fallbackEndpoint`;
 * when that fails too the icon is `missing`. Every outcome is cached for the page's life.
 */
export function createIconLoader(options: IconLoaderOptions): IconLoader {
  const log = options.log ?? console;
  const states = new Map<string, IconState>();
  const pending = new Set<string>();
  const queue = new Map<string, Set<string>>();
  const listeners = new Set<() => void>();
  let scheduled = false;

  /** `prefix:name`, both parts in Iconify's own name syntax; no providers, no dash-only short forms. */
  function parse(full: string): { prefix: string; name: string } | null {
    const [prefix, name, ...rest] = full.split(':');
    // Stryker disable next-line ConditionalExpression: `full.split(':')` on a string always returns at least one element (`''.split(':')` is `['']`), so `prefix` is never undefined and the test is false already; it is there for TypeScript's noUncheckedIndexedAccess. Names with no colon, an empty part or extra colons are refused by the other two tests (tests/platform/icons.test.ts: 'treats a name that is not `prefix:name` as missing', 'refuses a name with a provider or more than one colon').
    if (prefix === undefined || name === undefined || rest.length > 0) return null;
    return matchIconName.test(prefix) && matchIconName.test(name) ? { prefix, name } : null;
  }

  function fromPreloaded(prefix: string, name: string): IconState | undefined {
    // Stryker disable next-line ArrayDeclaration: The fallback is used only when no sets were preloaded. The mutant then loops over one string, whose `.prefix` is undefined, never equal to a parsed prefix (matchIconName needs at least one character), so the loop `continue`s and returns undefined exactly as the empty array does: the icon is still 'loading' and asked of the network (every test without `preloaded` runs through it).
    for (const set of options.preloaded ?? []) {
      if (set.prefix !== prefix) continue;
      const data = getIconData(set, name);
      if (data) return { status: 'loaded', data };
    }
    return undefined;
  }

  function state(name: string): IconState {
    const known = states.get(name);
    if (known) return known;
    const icon = parse(name);
    if (!icon) return MISSING;
    const preloaded = fromPreloaded(icon.prefix, icon.name);
    if (!preloaded) return LOADING;
    states.set(name, preloaded);
    return preloaded;
  }

  function request(name: string): void {
    const icon = parse(name);
    if (!icon) {
      log.warn(`[Icon] "${name}" is not an icon name like "lucide:house".`);
      return;
    }
    if (state(name) !== LOADING || pending.has(name)) return;
    pending.add(name);
    const names = queue.get(icon.prefix) ?? new Set<string>();
    queue.set(icon.prefix, names.add(icon.name));
    if (!scheduled) {
      scheduled = true;
      options.scheduleBatch(flush);
    }
  }

  function urlFor(base: string, prefix: string, names: readonly string[]): string {
    return `${base}/${prefix}.json?icons=${names.join(',')}`;
  }

  /** Splits `names` so that no request URL, to either endpoint, is longer than `maxUrlLength`. */
  function chunk(prefix: string, names: readonly string[]): string[][] {
    // Stryker disable next-line EqualityOperator: Differs only when the endpoint and the fallback have the same length; then either base gives URLs of the same length, so the split into requests is identical. When one is longer it is chosen either way; both orders are tested at the exact limit ('fills a request up to exactly maxUrlLength, measured on the longer fallback URL', 'measures on the endpoint when the endpoint is the longer of the two').
    const base = [options.endpoint, options.fallbackEndpoint].reduce((a, b) => (b.length > a.length ? b : a));
    const chunks: string[][] = [];
    let current: string[] = [];
    for (const name of names) {
      if (current.length > 0 && urlFor(base, prefix, [...current, name]).length > options.maxUrlLength) {
        chunks.push(current);
        current = [];
      }
      current.push(name);
    }
    // Stryker disable next-line ConditionalExpression: `chunk` is called only from `flush` with a queue entry, which exists only once `request` has added a name to it, so `names` is never empty; the loop pushes every name into `current` and resets it only just before a push, so after the loop `current` always holds at least one name and the condition is always true. Sending no empty request is tested ('sends a name too long for any URL on its own, never an empty request').
    // Stryker disable next-line EqualityOperator: As for the `true` mutant on this line: `current` is never empty after the loop (names is never empty, and the loop ends with a push), so `> 0` and `>= 0` are both true.
    if (current.length > 0) chunks.push(current);
    return chunks;
  }

  function flush(): void {
    scheduled = false;
    const batches = [...queue];
    queue.clear();
    for (const [prefix, names] of batches) {
      for (const part of chunk(prefix, [...names])) void load(prefix, part);
    }
  }

  /** One request, given up after `fetchTimeoutMs` whether or not the fetch honours its abort signal. */
  function fetchSet(base: string, prefix: string, names: readonly string[]): Promise<IconifyJSON> {
    const url = urlFor(base, prefix, names);
    const controller = new AbortController();
    return new Promise<IconifyJSON>((resolve, reject) => {
      const timer = options.setTimeout(() => {
        controller.abort();
        reject(new IconRequestError(`${url} timed out after ${options.fetchTimeoutMs}ms`));
      }, options.fetchTimeoutMs);
      options
        .fetch(url, { signal: controller.signal })
        .then((response) => {
          if (!response.ok) throw new IconRequestError(`${url} answered ${response.status}`);
          return response.json().catch(() => {
            throw new IconRequestError(`${url} did not answer JSON`);
          });
        })
        .then((body) => {
          if (!isIconSet(body, prefix)) throw new IconRequestError(`${url} did not answer an icon set`);
          return body;
        })
        .then(resolve, reject)
        .finally(() => options.clearTimeout(timer));
    });
  }

  function reason(error: unknown): string {
    return error instanceof IconRequestError ? error.message : `${String(error)}`;
  }

  async function load(prefix: string, names: readonly string[]): Promise<void> {
    let set: IconifyJSON | undefined;
    try {
      set = await fetchSet(options.endpoint, prefix, names);
    } catch (error) {
      log.warn(`[Icon] ${reason(error)}; asking ${options.fallbackEndpoint} instead.`);
      try {
        set = await fetchSet(options.fallbackEndpoint, prefix, names);
      } catch (fallbackError) {
        log.warn(
          `[Icon] failed to load ${names.map((name) => `${prefix}:${name}`).join(', ')}: ${reason(fallbackError)}`,
        );
      }
    }
    for (const name of names) {
      const data = set ? getIconData(set, name) : null;
      const full = `${prefix}:${name}`;
      // The fallback is a third party: a body that is not the regular SVG subset Iconify writes is refused
      // here, and `<Icon>` renders only the allow-listed parts of the rest (src/platform/iconSvg.ts).
      states.set(full, data && parseIconBody(data.body) !== null ? { status: 'loaded', data } : MISSING);
      pending.delete(full);
    }
    for (const listener of [...listeners]) listener();
  }

  return {
    state,
    request,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function nextFrame(flush: () => void): void {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => flush());
  else setTimeout(flush, 0);
}

let browserLoader: IconLoader | undefined;

/** The page's one loader, created on first use with the browser's fetch and timers. */
export function getIconLoader(): IconLoader {
  browserLoader ??= createIconLoader({
    ...config.icons,
    fetch: (url, init) => fetch(url, init),
    setTimeout: (callback, ms) => setTimeout(callback, ms),
    clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    scheduleBatch: nextFrame,
    preloaded: bundledIcons,
  });
  return browserLoader;
}
