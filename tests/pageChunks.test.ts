import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pageChunkUrls from 'virtual:page-chunks';
import { describe, expect, it } from 'vitest';
import { dynamicPagesOf } from '../build/pageChunks';
import { routes } from '../core/routes';

const registrySource = readFileSync(join(import.meta.dirname, '../src/pages/registry.ts'), 'utf8');

describe('page chunk URLs for the retry (build/pageChunks.ts)', () => {
  it("reads the pages from the registry's dynamic imports, once each", () => {
    expect(
      dynamicPagesOf("a: () => import('./home'), b: () => import( './campaign' ), c: import('./home')"),
    ).toEqual(['home', 'campaign']);
    expect(dynamicPagesOf("import('../elsewhere'); import(variable)")).toEqual([]);
  });

  it('has a URL for every page the registry imports, and the registry imports one page per route', () => {
    const pages = dynamicPagesOf(registrySource);
    expect(pages).toHaveLength(routes.length);
    for (const page of pages) expect(pageChunkUrls[page]).toBe(`/src/pages/${page}.tsx`);
  });
});
