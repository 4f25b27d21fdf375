// @vitest-environment node
// The page cache (server/render/cache.ts): bounded by bytes, dropped by tags, one render per missing page, and
// never a render's result kept when an invalidation came while it ran.
import { describe, expect, it } from 'vitest';
import { type CachedPage, PageCache } from '../../../server/render/cache';
import { LIST_TAG, tagsOfNotification, tagsOfPage } from '../../../server/render/tags';

function page(key: string, tags: string[], bytes = 10, text = key): CachedPage {
  const body = Buffer.from(text.padEnd(bytes, '.'));
  const variant = { body, etag: `"${text}"`, contentType: 'text/html', headers: {} };
  return { key, variants: { document: variant, payload: variant }, tags, renderedAt: 0 };
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

describe('the page cache', () => {
  it('keeps a rendered page and answers the next request from it without rendering', async () => {
    const cache = new PageCache({ maxBytes: 1_000 });
    let renders = 0;
    const render = async () => {
      renders += 1;
      return page('/campaign/1', ['campaign:1']);
    };
    await cache.obtain('/campaign/1', render);
    const again = await cache.obtain('/campaign/1', render);
    expect(again.key).toBe('/campaign/1');
    expect(renders).toBe(1);
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 1, misses: 1 });
  });

  it('evicts the least recently used pages past its bytes, never one larger than itself', async () => {
    const cache = new PageCache({ maxBytes: 100 });
    for (const key of ['/a', '/b', '/c']) await cache.obtain(key, async () => page(key, [], 40));
    // 3 × (40 + 2) bytes do not fit in 100: /a went first.
    expect(cache.peek('/a')).toBeUndefined();
    expect(cache.peek('/b')).toBeDefined();
    cache.get('/b');
    await cache.obtain('/d', async () => page('/d', [], 40));
    expect(cache.peek('/c')).toBeUndefined();
    expect(cache.peek('/b')).toBeDefined();
    expect(cache.stats().bytes).toBeLessThanOrEqual(100);
    const huge = await cache.obtain('/huge', async () => page('/huge', [], 500));
    expect(huge.variants.document.body.length).toBe(500);
    expect(cache.peek('/huge')).toBeUndefined();
  });

  it('renders a missing page once for every request that asks while it renders', async () => {
    const cache = new PageCache({ maxBytes: 1_000 });
    const gate = deferred<CachedPage>();
    let renders = 0;
    const render = () => {
      renders += 1;
      return gate.promise;
    };
    const answers = Array.from({ length: 20 }, () => cache.obtain('/', render));
    gate.resolve(page('/', [LIST_TAG]));
    const pages = await Promise.all(answers);
    expect(renders).toBe(1);
    expect(new Set(pages).size).toBe(1);
    expect(cache.stats().coalesced).toBe(19);
  });

  it('lets a failed render fail every request that joined it, and the next request render again', async () => {
    const cache = new PageCache({ maxBytes: 1_000 });
    const gate = deferred<CachedPage>();
    const first = cache.obtain('/', () => gate.promise);
    const joined = cache.obtain('/', () => gate.promise);
    gate.reject(new Error('database down'));
    await expect(first).rejects.toThrow('database down');
    await expect(joined).rejects.toThrow('database down');
    const next = await cache.obtain('/', async () => page('/', []));
    expect(next.key).toBe('/');
  });

  it('drops exactly the pages tagged with what a write changed', async () => {
    const cache = new PageCache({ maxBytes: 10_000 });
    await cache.obtain('/', async () => page('/', [LIST_TAG, 'campaign:1', 'campaign:2']));
    await cache.obtain('/?after=c2', async () => page('/?after=c2', [LIST_TAG, 'campaign:7']));
    await cache.obtain('/campaign/1', async () => page('/campaign/1', ['campaign:1']));
    await cache.obtain('/campaign/2', async () => page('/campaign/2', ['campaign:2']));
    await cache.obtain('/login', async () => page('/login', []));

    // An edit of campaign 1: its page and the list page that shows it.
    expect(cache.invalidate(['campaign:1'])).toBe(2);
    expect(cache.peek('/')).toBeUndefined();
    expect(cache.peek('/campaign/1')).toBeUndefined();
    expect(cache.peek('/?after=c2')).toBeDefined();
    expect(cache.peek('/campaign/2')).toBeDefined();

    // A campaign published: every list page shifts.
    expect(cache.invalidate(['campaign:9', LIST_TAG])).toBe(1);
    expect(cache.peek('/?after=c2')).toBeUndefined();
    expect(cache.peek('/campaign/2')).toBeDefined();
    expect(cache.peek('/login')).toBeDefined();

    cache.clear();
    expect(cache.stats().entries).toBe(0);
  });

  it('forgets the tags of an evicted or replaced page', async () => {
    const cache = new PageCache({ maxBytes: 10_000 });
    await cache.obtain('/campaign/1', async () => page('/campaign/1', ['campaign:1']));
    cache.invalidate(['campaign:1']);
    await cache.obtain('/campaign/1', async () => page('/campaign/1', ['campaign:1'], 10, 'v2'));
    expect(cache.peek('/campaign/1')?.variants.document.etag).toBe('"v2"');
    expect(cache.invalidate(['campaign:1'])).toBe(1);
    expect(cache.invalidate(['campaign:1'])).toBe(0);
  });

  it('never keeps a render that an invalidation overtook, and starts a new one for later requests', async () => {
    const cache = new PageCache({ maxBytes: 1_000 });
    const before = deferred<CachedPage>();
    const early = cache.obtain('/campaign/1', () => before.promise);
    // The write commits while the render (which may have read the old row) is under way.
    cache.invalidate(['campaign:1']);
    let later = 0;
    const late = cache.obtain('/campaign/1', async () => {
      later += 1;
      return page('/campaign/1', ['campaign:1'], 10, 'after');
    });
    before.resolve(page('/campaign/1', ['campaign:1'], 10, 'before'));
    expect((await early).variants.document.etag).toBe('"before"');
    expect((await late).variants.document.etag).toBe('"after"');
    expect(later).toBe(1);
    expect(cache.peek('/campaign/1')?.variants.document.etag).toBe('"after"');
  });

  it('renders without keeping when told the cache is not to be trusted', async () => {
    const cache = new PageCache({ maxBytes: 1_000 });
    await cache.obtain('/', async () => page('/', [], 10, 'old'));
    const fresh = await cache.obtain('/', async () => page('/', [], 10, 'new'), { keep: false });
    expect(fresh.variants.document.etag).toBe('"new"');
    expect(cache.peek('/')?.variants.document.etag).toBe('"old"');
  });
});

describe('tags', () => {
  it('tag a campaign page with its campaign, and a list with each campaign it shows', () => {
    expect(tagsOfPage('/campaign/3', { buildId: 'b', path: '/campaign/3', data: { id: 3 } })).toEqual([
      'campaign:3',
    ]);
    expect(
      tagsOfPage('/?after=c9', {
        buildId: 'b',
        path: '/?after=c9',
        data: { campaigns: [{ id: 8 }, { id: 7 }], next: null },
      }),
    ).toEqual([LIST_TAG, 'campaign:8', 'campaign:7']);
    expect(tagsOfPage('/login', { buildId: 'b', path: '/login' })).toEqual([]);
  });

  it('read what the trigger sends, and nothing else', () => {
    expect(tagsOfNotification('{"campaign":4,"list":false}')).toEqual(['campaign:4']);
    expect(tagsOfNotification('{"campaign":4,"list":true}')).toEqual(['campaign:4', LIST_TAG]);
    for (const text of ['', 'not json', '{"campaign":"4"}', '[]', 'null'])
      expect(tagsOfNotification(text), text).toBeNull();
  });
});
