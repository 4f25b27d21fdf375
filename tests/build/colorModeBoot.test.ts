// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { colorModeBootScript, forcedRules, patternSource } from '../../build/colorModeBoot';
import { findRoute, type RouteRecord, routes } from '../../core/routes';
import { config } from '../../src/config';

describe('colour-mode boot script', () => {
  it('lists the forced routes of the route table', () => {
    expect(forcedRules()).toEqual([['^/campaign/components/info/?$', 'dark']]);
  });

  it('matches a dynamic pattern one segment per parameter', () => {
    const pattern = new RegExp(patternSource('/campaign/:id'), 'i');
    expect(pattern.test('/campaign/7')).toBe(true);
    expect(pattern.test('/Campaign/7/')).toBe(true);
    expect(pattern.test('/campaign/7/edit')).toBe(false);
  });

  it('lets a more specific route that forces nothing win over a forced dynamic one, as matchRoute does', () => {
    const table: RouteRecord[] = [
      ...routes.map((route) =>
        route.name === 'campaign' ? { ...route, colorMode: 'light' as const } : route,
      ),
      { ...findRoute('index'), path: '/campaign/new' },
    ];
    const rules = forcedRules(table);
    expect(rules).toEqual([
      ['^/campaign/components/info/?$', 'dark'],
      ['^/campaign/new/?$', ''],
      ['^/campaign/[^/]+/?$', 'light'],
    ]);
  });

  it('stays tiny, guards storage and matchMedia, and uses the app’s storage key', () => {
    const script = colorModeBootScript(routes, config.colorMode.storageKey);
    expect(script.length).toBeLessThan(700);
    expect(script).toContain('try{p=localStorage.getItem("color-mode")}catch(e){}');
    expect(script).toContain('window.matchMedia&&');
  });
});
