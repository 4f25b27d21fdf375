import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pageChunkUrls from 'virtual:page-chunks';
import { describe, expect, it } from 'vitest';
import { pageFiles } from '../../core/pages';

const root = join(import.meta.dirname, '../..');

describe('page chunk URLs for the retry (build/pageChunks.ts)', () => {
  it("has a URL for each of the page table's files, in its order, and nothing else", () => {
    expect(Object.keys(pageChunkUrls)).toEqual(Object.values(pageFiles));
  });

  it('gives each page its source file outside a build, and that file exists', () => {
    for (const file of Object.values(pageFiles)) {
      const url = pageChunkUrls[file];
      expect(url).toBe(`/src/pages/${file}.tsx`);
      expect(existsSync(join(root, url ?? '')), url).toBe(true);
    }
  });
});
