import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IconifyJSON } from '@iconify/types';
import { getIconData, getIcons, iconToSVG } from '@iconify/utils';
import type { Plugin } from 'vite';
import { loadCollection } from '../server/routes/icons.ts';
import { parseIconBody } from '../src/platform/iconSvg.ts';

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

/** A body parsed into the tree `<Icon>` renders (src/platform/iconSvg.ts `parseIconBody`), or `null` if refused. */
export type IconBodyParser = (body: string) => readonly unknown[] | null;

/** The shape of src/platform/icons.rendered.ts (server/ imports nothing from src/). */
export interface RenderedIconData {
  readonly viewBox: string;
  readonly nodes: readonly unknown[];
}

/**
 * The bundled icons as `<Icon>` draws them, by full name, for every name the source writes (aliases included).
 * A body with ids is left out: ids must be made unique per use (`replaceIDs`), which happens at run time.
 */
export function renderBundledIcons(
  sets: readonly IconifyJSON[],
  names: Map<string, Set<string>>,
  parseIconBody: IconBodyParser,
) {
  const rendered: Record<string, RenderedIconData> = {};
  for (const set of sets) {
    for (const name of names.get(set.prefix) ?? []) {
      const data = getIconData(set, name);
      if (!data) continue;
      const { attributes, body } = iconToSVG(data);
      const nodes = /\sid="/.test(body) ? null : parseIconBody(body);
      if (nodes) rendered[`${set.prefix}:${name}`] = { viewBox: attributes.viewBox, nodes };
    }
  }
  return rendered;
}

export interface BundledIconsOptions {
  /** Folder scanned for icon names, relative to the Vite root. */
  srcDir?: string;
  /** The stand-in module whose content is replaced, relative to the Vite root. */
  module?: string;
  /** The stand-in module of the pre-rendered icons, relative to the Vite root. */
  renderedModule?: string;
  /** The body parser; the browser's own (`src/platform/iconSvg.ts`) unless a test passes another. */
  parseIconBody?: IconBodyParser;
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
  let renderedTarget = '';
  return {
    name: 'campaign-web:bundled-icons',
    enforce: 'pre',
    configResolved(config) {
      srcDir = path.resolve(config.root, options.srcDir ?? 'src');
      target = path.resolve(config.root, options.module ?? 'src/platform/icons.bundle.ts');
      renderedTarget = path.resolve(config.root, options.renderedModule ?? 'src/platform/icons.rendered.ts');
    },
    async load(id) {
      const file = path.resolve(id.split('?')[0] ?? '');
      if (file === target) {
        const sets = await collectBundledIcons(srcDir, (message) => this.warn(message));
        return `export const bundledIcons = ${JSON.stringify(sets)};\n`;
      }
      if (file === renderedTarget) {
        // Warnings about missing names come from the other module; this one only renders what exists.
        const parse = options.parseIconBody ?? parseIconBody;
        const sets = await collectBundledIcons(srcDir, () => {});
        const rendered = renderBundledIcons(sets, await scanIconNames(srcDir), parse);
        return `export const renderedIcons = ${JSON.stringify(rendered)};\n`;
      }
      return null;
    },
  };
}
