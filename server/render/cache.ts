/**
 * The rendered pages of one instance, in memory: each page's document and payload, bounded by their bytes and
 * evicted least recently used first (lru-cache). Every entry carries tags naming what it shows (`campaign:3`,
 * `list`: ./tags.ts); a write that changes a campaign drops exactly the entries tagged with it, on every
 * instance (./listener.ts). Concurrent requests for a page that is not cached share one render (`obtain`).
 *
 * Never stale after a write: a render that was under way when an invalidation arrived may have read the data
 * from before the write, so its result is handed to the requests that were waiting for it but not kept, and a
 * request after the invalidation starts a render of its own.
 */
import { LRUCache } from 'lru-cache';

/** One answer of a page: its document, or its `_payload.json`. */
export interface CachedBody {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
  /** Headers the answer carries besides the usual (a document's own CSP). */
  readonly headers: Readonly<Record<string, string>>;
}

export interface CachedPage {
  /** What the entry is kept under: the path, with `?after=…` on the landing page's later pages. */
  readonly key: string;
  readonly variants: { readonly document: CachedBody; readonly payload: CachedBody };
  readonly tags: readonly string[];
  /** When it was rendered (ms since the epoch). */
  readonly renderedAt: number;
}

export interface PageCacheOptions {
  /** The most bytes of bodies kept (PAGE_CACHE_BYTES). */
  maxBytes: number;
}

export interface PageCacheStats {
  entries: number;
  bytes: number;
  hits: number;
  misses: number;
  /** Renders joined by a request that found one under way. */
  coalesced: number;
  /** Entries dropped by invalidations, whole-cache drops included. */
  invalidated: number;
}

export class PageCache {
  readonly #entries: LRUCache<string, CachedPage>;
  /** tag → keys of the entries that carry it. */
  readonly #byTag = new Map<string, Set<string>>();
  readonly #inflight = new Map<string, Promise<CachedPage>>();
  /** Bumped by every invalidation: a render that started before one is not kept. */
  #generation = 0;
  readonly #stats = { hits: 0, misses: 0, coalesced: 0, invalidated: 0 };

  constructor({ maxBytes }: PageCacheOptions) {
    this.#entries = new LRUCache<string, CachedPage>({
      maxSize: maxBytes,
      // An entry larger than the whole cache is served, never kept.
      maxEntrySize: maxBytes,
      sizeCalculation: (page) =>
        page.key.length +
        page.variants.document.body.length +
        (page.variants.payload === page.variants.document ? 0 : page.variants.payload.body.length),
      dispose: (page, key) => this.#unindex(key, page.tags),
    });
  }

  /** The cached page under `key`, if any (counted as a hit or a miss). */
  get(key: string): CachedPage | undefined {
    const page = this.#entries.get(key);
    if (page) this.#stats.hits += 1;
    else this.#stats.misses += 1;
    return page;
  }

  /** The cached page under `key` without touching its recency or the counts (a stale answer's look-up). */
  peek(key: string): CachedPage | undefined {
    return this.#entries.peek(key);
  }

  /**
   * The page under `key`: the cached one, the render under way for it, or a new render by `render`, kept
   * unless an invalidation came while it ran. `keep: false` renders without keeping (the cache is not trusted
   * right now: ./listener.ts is reconnecting).
   */
  obtain(key: string, render: () => Promise<CachedPage>, { keep = true } = {}): Promise<CachedPage> {
    if (keep) {
      const cached = this.get(key);
      if (cached) return Promise.resolve(cached);
    }
    const pending = this.#inflight.get(key);
    if (pending !== undefined) {
      this.#stats.coalesced += 1;
      return pending;
    }
    const generation = this.#generation;
    const attempt = render().then((page) => {
      if (keep && generation === this.#generation) this.#set(page);
      return page;
    });
    this.#inflight.set(key, attempt);
    const forget = () => {
      if (this.#inflight.get(key) === attempt) this.#inflight.delete(key);
    };
    attempt.then(forget, forget);
    return attempt;
  }

  /** Drops every entry carrying any of `tags`; returns how many went. */
  invalidate(tags: readonly string[]): number {
    this.#generation += 1;
    // A render under way may have read the data before the write: later requests must not join it.
    this.#inflight.clear();
    const keys = new Set<string>();
    for (const tag of tags) for (const key of this.#byTag.get(tag) ?? []) keys.add(key);
    for (const key of keys) this.#entries.delete(key);
    this.#stats.invalidated += keys.size;
    return keys.size;
  }

  /** Drops everything (the listener reconnected and may have missed notifications). */
  clear(): void {
    this.#generation += 1;
    this.#inflight.clear();
    this.#stats.invalidated += this.#entries.size;
    this.#entries.clear();
  }

  stats(): PageCacheStats {
    return { entries: this.#entries.size, bytes: this.#entries.calculatedSize, ...this.#stats };
  }

  #set(page: CachedPage): void {
    // Replacing an entry disposes of the old one (and its tags) first.
    this.#entries.set(page.key, page);
    if (!this.#entries.has(page.key)) return;
    for (const tag of page.tags) {
      let keys = this.#byTag.get(tag);
      if (!keys) {
        keys = new Set();
        this.#byTag.set(tag, keys);
      }
      keys.add(page.key);
    }
  }

  #unindex(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.#byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.#byTag.delete(tag);
    }
  }
}
