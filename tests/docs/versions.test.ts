// @vitest-environment node
// The versions the documents name are the ones installed: the README says which Node runs this and how a
// developer gets it, and docs/dependencies.md's versions and pins are those of the lockfile, not of an older one.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The version the lockfile installs at the top level for `name`. */
function installed(name: string): string {
  const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version?: string }> };
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json`);
  return version;
}

/** `12.8.2` matches 12.8.2; `5` matches 5.x.y; `0.28` matches 0.28.z. */
const matches = (named: string, version: string) => version === named || version.startsWith(`${named}.`);

/**
 * Each version a row of docs/dependencies.md's table gives a package: `` `pkg` 1.2.3 ``, `` `a` + `b` 10.1.1 ``
 * (both), and "pinned to 1.2" anywhere in the row (its first package). As `[row's first cell, package, version]`.
 */
function namedVersions(): [string, string, string][] {
  const found: [string, string, string][] = [];
  for (const row of read('docs/dependencies.md')
    .split('\n')
    .filter((line) => line.startsWith('| `'))) {
    const first = row.split('|')[1] ?? '';
    for (const match of first.matchAll(/((?:`[^`]+`(?: \+ )?)+) (\d+(?:\.\d+)*)\b/g)) {
      for (const name of (match[1] as string).matchAll(/`([^`]+)`/g))
        found.push([first.trim(), name[1] as string, match[2] as string]);
    }
    const pinned = /pinned to (\d+(?:\.\d+)*)/i.exec(row);
    const firstName = /`([^`]+)`/.exec(first);
    if (pinned && firstName) found.push([first.trim(), firstName[1] as string, pinned[1] as string]);
  }
  return found;
}

describe('versions in the documents', () => {
  it('the README names the Node major the checkout pins, the engines floor, and how to get it', () => {
    const major = read('.nvmrc').trim();
    expect(read('.node-version').trim()).toBe(major);
    const floor = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
    const twoCommands = read('README.md').split('## Two commands')[1]?.split('\n## ')[0] ?? '';
    expect(twoCommands).toContain(`Node ${major}`);
    expect(twoCommands).toContain('`.nvmrc`');
    expect(twoCommands).toContain(`\`engines\` \`${floor}\``);
    expect(twoCommands).toContain('. scripts/ci/node24.sh');
    expect(read('scripts/ci/node24.sh')).toMatch(new RegExp(`NODE24_VERSION:-${major}\\.`));
  });

  it('docs/dependencies.md gives each package the version the lockfile installs', () => {
    const named = namedVersions();
    // The table names these, so the check reads something.
    expect(named.map(([, name]) => name)).toEqual(
      expect.arrayContaining(['lighthouse', '@stryker-mutator/core', 'typescript', 'fastify']),
    );
    const stale = named
      .filter(([, name, version]) => !matches(version, installed(name)))
      .map(
        ([row, name, version]) =>
          `${name}: the docs say ${version}, the lockfile has ${installed(name)} (${row})`,
      );
    expect(stale).toEqual([]);
  });

  it('no document says the tool chain runs on a Node below the engines floor', () => {
    const floorMajor = Number(/\d+/.exec(JSON.parse(read('package.json')).engines.node)?.[0]);
    const claims: string[] = [];
    for (const file of ['README.md', 'docs/dependencies.md', 'docs/server.md', 'docs/testing.md']) {
      for (const [index, line] of read(file).split('\n').entries()) {
        for (const match of line.matchAll(/\bNode (\d+)\b/g))
          if (Number(match[1]) < floorMajor) claims.push(`${file}:${index + 1}: ${match[0]}`);
      }
    }
    expect(claims).toEqual([]);
  });
});
