// @vitest-environment node
/**
 * Every module of machines/ and core/ loads. A test file whose imports throw has no tests to fail, and Stryker's Vitest
 * runner counts such a run as "survived"; imported here inside a test, a machine definition broken at load
 * time (a mutated state name, an emptied `states`) fails this test instead.
 */
import { expect, it } from 'vitest';

const modules = import.meta.glob(['../../machines/**/*.ts', '../../core/*.ts']);

it('every machine module loads', async () => {
  const names = Object.keys(modules);
  expect(names.length).toBeGreaterThan(10);
  for (const name of names) {
    await expect(modules[name]?.(), `${name} loads`).resolves.toBeTypeOf('object');
  }
});
