// @vitest-environment node
// The two composition roots: server/app.ts and api/plugin.ts configure Fastify and register plugins and
// routes by resource; they define no route themselves and stay short, so a new feature lands in a file of its own
// (server/plugins/, server/routes/, api/routes/) instead of growing them again.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ROOTS = ['server/app.ts', 'api/plugin.ts'];
const MAX_LINES = 120;

const sourceOf = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The lines of `source` that define a route (`app.get(…)`, `fastify.route(…)` and the like). */
function routeDefinitions(source: string): string[] {
  return source
    .split('\n')
    .filter((line) => /\.(get|head|post|put|patch|delete|options|all|route)\(\s*['"`{]/.test(line));
}

describe('the composition roots', () => {
  it.each(ROOTS)('%s is under 120 lines', (file) => {
    expect(sourceOf(file).trimEnd().split('\n').length).toBeLessThan(MAX_LINES);
  });

  it.each(ROOTS)('%s defines no route of its own', (file) => {
    expect(routeDefinitions(sourceOf(file))).toEqual([]);
  });

  it('would see a route defined in one (a planted violation)', () => {
    const planted = `${sourceOf('server/app.ts')}\napp.get('/planted', async () => 'no');\n`;
    expect(routeDefinitions(planted)).toEqual(["app.get('/planted', async () => 'no');"]);
    expect(routeDefinitions("  app.route({ method: 'GET', url: '/x', handler })")).toHaveLength(1);
  });
});
