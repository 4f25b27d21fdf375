// @vitest-environment happy-dom
// The page table (core/pages.ts) is the one list of page files: the route table must name the same routes, and
// the registry's written-out `import()` of each route must load the table's file for it, or the build would
// look for one page's chunk and the app load another's.
import { describe, expect, it } from 'vitest';
import { pageFileOf, pageFiles } from '../../core/pages';
import { routes } from '../../core/routes';
import { importPage } from '../../src/pages/registry';

describe('the page table', () => {
  it('has one page for each route of the route table, and no other', () => {
    expect(Object.keys(pageFiles).sort()).toEqual(routes.map((route) => route.name).sort());
  });

  it('names the file of a route, and none for a name it does not hold', () => {
    expect(pageFileOf('campaignComponentsInfo')).toBe('componentsInfo');
    expect(pageFileOf('profile')).toBe('profile');
    expect(pageFileOf('toString')).toBeUndefined();
    expect(pageFileOf('componentsInfo')).toBeUndefined();
  });

  it("is what the registry imports: each route's import loads the table's file", {
    timeout: 60_000,
  }, async () => {
    for (const route of routes) {
      const file = pageFiles[route.name];
      const fromTable = (await import(/* @vite-ignore */ `../../src/pages/${file}.tsx`)).default;
      expect(await importPage(route.name), `${route.name} -> src/pages/${file}.tsx`).toBe(fromTable);
    }
  });
});
