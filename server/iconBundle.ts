import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IconifyJSON } from '@iconify/types';
import { getIcons } from '@iconify/utils';
import type { Plugin } from 'vite';
import { loadCollection } from './icons.ts';

/**
 * Icon names written as whole string literals, `'lucide:house'` or `"lucide:house"`. A name put together at
 * run time (`` `lucide:${name}` ``) is not seen, so it is loaded from the icon endpoint on demand.
 */
const LITERAL_ICON_NAME = /(['"])([a-z0-9]+(?:-[a-z0-9]+)*):([a-z0-9]+(?:-[a-z0-9]+)*)\1/g;

/** Every `prefix:name` literal in the `.ts`/`.tsx` files under `dir`, grouped by prefix. */
export async function scanIconNames(dir: string): Promise<Map<string, Set<string>>> {
  const found = new Map<string, Set<string>>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const text = await readFile(path.join(entry.parentPath, entry.name), 'utf8');
    for (const [, , prefix, name] of text.matchAll(LITERAL_ICON_NAME)) {
      if (prefix === undefined || name === undefined) continue;
      const names = found.get(prefix) ?? new Set<string>();
      found.set(prefix, names.add(name));
    }
  }
  return found;
}

/**
 * The icon sets to inline: for each scanned prefix that is an installed collection, exactly the icons the
 * source names (aliases resolved). Prefixes that are no installed collection (`'sm:50vw'`, `'http:...'`)
 * are ignored; a name missing from an installed collection is reported through `warn`.
 */
export async function collectBundledIcons(
  dir: string,
  warn: (message: string) => void = console.warn,
): Promise<IconifyJSON[]> {
  const sets: IconifyJSON[] = [];
  const scanned = [...(await scanIconNames(dir))].sort(([a], [b]) => a.localeCompare(b));
  for (const [prefix, names] of scanned) {
    const collection = await loadCollection(prefix);
    if (!collection) continue;
    const picked = getIcons(collection, [...names].sort(), true);
    if (!picked) continue;
    const { not_found: missing, ...set } = picked;
    if (missing?.length) warn(`[icons] Not in @iconify-json/${prefix}: ${missing.join(', ')}`);
    if (Object.keys(set.icons).length > 0) sets.push(set);
  }
  return sets;
}

export interface BundledIconsOptions {
  /** Folder scanned for icon names, relative to the Vite root. */
  srcDir?: string;
  /** The stand-in module whose content is replaced, relative to the Vite root. */
  module?: string;
}

/**
 * Inlines the icons the app's own source names, so that they render on first paint with no request.
 *
 * `src/platform/icons.bundle.ts` is a real module exporting an empty list, which is what Vitest and the type
 * checker see; in `vite dev` and `vite build` this plugin loads it instead with the scanned icons. Only those
 * icons go in, never the whole collection. Dev does not rescan on edits: an icon added meanwhile still shows,
 * loaded from the endpoint, until the next start.
 */
export function bundledIcons(options: BundledIconsOptions = {}): Plugin {
  let srcDir = '';
  let target = '';
  return {
    name: 'campaign-web:bundled-icons',
    enforce: 'pre',
    configResolved(config) {
      srcDir = path.resolve(config.root, options.srcDir ?? 'src');
      target = path.resolve(config.root, options.module ?? 'src/platform/icons.bundle.ts');
    },
    async load(id) {
      if (path.resolve(id.split('?')[0] ?? '') !== target) return null;
      const sets = await collectBundledIcons(srcDir, (message) => this.warn(message));
      return `export const bundledIcons = ${JSON.stringify(sets)};\n`;
    },
  };
}
