/**
 * The CSP hashes of a build: every inline executable `<script>`, every `<style>` element and every `style`
 * attribute in every HTML file under `dist/` (index.html, the SPA shell, prerendered pages). The HTML is parsed
 * with parse5, the WHATWG parser, so the text hashed is exactly the text the browser hashes (raw script text,
 * newlines normalised), and a `<script>` inside a comment or an attribute is not mistaken for one.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type DefaultTreeAdapterTypes, parse } from 'parse5';
import { TRANSITION_FREEZE_CSS } from '../../core/colorModeFreeze.ts';
import type { PolicyInputs } from './securityHeaders.ts';

/** `<style>` texts the app itself inserts at run time; each is allowed by its hash like those in the HTML. */
export const RUNTIME_STYLES: readonly string[] = [TRANSITION_FREEZE_CSS];

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document;

/** The script types a browser executes (HTML spec: a JavaScript MIME type essence, empty, or module). */
const EXECUTABLE_TYPES = new Set([
  '',
  'module',
  'text/javascript',
  'application/javascript',
  'application/ecmascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'text/ecmascript',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
]);

export function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

function attribute(node: DefaultTreeAdapterTypes.Element, name: string): string | undefined {
  return node.attrs.find((attr) => attr.name === name)?.value;
}

function textOf(node: DefaultTreeAdapterTypes.Element): string {
  return node.childNodes
    .map((child) => (child.nodeName === '#text' ? (child as { value: string }).value : ''))
    .join('');
}

/** Whether a `<script>` element without `src` is run by the browser (a JSON data block is not). */
export function isExecutableScript(type: string | undefined): boolean {
  return type === undefined || EXECUTABLE_TYPES.has(type.trim().toLowerCase());
}

/** The hashes one HTML document needs. */
export function hashesOfHtml(html: string): PolicyInputs {
  const scripts: string[] = [];
  const styles: string[] = [];
  const styleAttributes: string[] = [];
  const visit = (node: Node) => {
    if ('tagName' in node) {
      const style = attribute(node, 'style');
      if (style !== undefined) styleAttributes.push(sha256Source(style));
      if (node.tagName === 'script' && attribute(node, 'src') === undefined) {
        if (isExecutableScript(attribute(node, 'type'))) scripts.push(sha256Source(textOf(node)));
      } else if (node.tagName === 'style') {
        styles.push(sha256Source(textOf(node)));
      }
    }
    const children = 'content' in node && node.content ? node.content.childNodes : [];
    for (const child of [...('childNodes' in node ? node.childNodes : []), ...children]) visit(child);
  };
  visit(parse(html));
  return { scriptHashes: scripts, styleHashes: styles, styleAttributeHashes: styleAttributes };
}

/** Every `.html` file under `dir`, relative, `/`-separated. */
export async function htmlFilesOf(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** The union of the hashes of every HTML file of a build and of RUNTIME_STYLES, deduplicated and sorted. */
export async function hashesOfBuild(dir: string): Promise<PolicyInputs> {
  const all = {
    scriptHashes: [] as string[],
    styleHashes: RUNTIME_STYLES.map(sha256Source),
    styleAttributeHashes: [] as string[],
  };
  for (const file of await htmlFilesOf(dir)) {
    const found = hashesOfHtml(await readFile(path.join(dir, file), 'utf8'));
    all.scriptHashes.push(...found.scriptHashes);
    all.styleHashes.push(...found.styleHashes);
    all.styleAttributeHashes.push(...found.styleAttributeHashes);
  }
  const tidy = (values: string[]) => [...new Set(values)].sort();
  return {
    scriptHashes: tidy(all.scriptHashes),
    styleHashes: tidy(all.styleHashes),
    styleAttributeHashes: tidy(all.styleAttributeHashes),
  };
}
