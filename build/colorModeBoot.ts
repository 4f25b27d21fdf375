/**
 * The no-flash boot script: a few hundred bytes inlined at the top of `<head>` that put the right colour
 * mode on `<html>` before the first paint, as @nuxtjs/color-mode's inline script does (nuxt-behaviours.md
 * section 9). It reads the stored preference (inside try/catch: storage may throw), resolves `system`
 * through matchMedia (missing means light), and honours the pages that force a mode. Which pages those are
 * is generated from the route table at build time, so the script and the app cannot disagree.
 */
import type { Plugin } from 'vite';
import { type RouteRecord, routes } from '../core/routes.ts';
import { config } from '../src/config.ts';

function segments(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The pattern as a regular expression source: `:param` is one segment; a trailing slash is allowed. */
export function patternSource(path: string): string {
  const parts = segments(path).map((part) => (part.startsWith(':') ? '[^/]+' : escapeRegExp(part)));
  return `^/${parts.join('/')}/?$`;
}

function staticCount(route: RouteRecord): number {
  return segments(route.path).filter((part) => !part.startsWith(':')).length;
}

/** Can some path match both patterns? (Same length, and no two static segments disagree.) */
function overlaps(a: RouteRecord, b: RouteRecord): boolean {
  const left = segments(a.path);
  const right = segments(b.path);
  if (left.length !== right.length) return false;
  return left.every((part, index) => {
    const other = right[index] as string;
    return part.startsWith(':') || other.startsWith(':') || part.toLowerCase() === other.toLowerCase();
  });
}

/**
 * The rules the script tries in order, first match wins: every forced route, plus any route that would win
 * over a forced one in `matchRoute` (more static segments), so `/campaign/:id` forced would not also force
 * `/campaign/components/info`. An entry with mode `''` means "this page forces nothing".
 */
export function forcedRules(table: readonly RouteRecord[] = routes): [string, string][] {
  const forced = table.filter((route) => route.colorMode !== undefined);
  const relevant = table.filter(
    (route) =>
      route.colorMode !== undefined ||
      forced.some((other) => overlaps(route, other) && staticCount(route) > staticCount(other)),
  );
  return [...relevant]
    .sort((a, b) => staticCount(b) - staticCount(a))
    .map((route) => [patternSource(route.path), route.colorMode ?? '']);
}

/** The script itself. Plain ES5 so that it runs wherever the page can at least say it cannot start. */
export function colorModeBootScript(table: readonly RouteRecord[], storageKey: string): string {
  return `(function(){var d=document.documentElement,p,v,r=${JSON.stringify(forcedRules(table))},i;try{p=localStorage.getItem(${JSON.stringify(storageKey)})}catch(e){}if(p!=="light"&&p!=="dark")p="system";v=p;if(p==="system"){v="light";try{if(window.matchMedia&&matchMedia("(prefers-color-scheme: dark)").matches)v="dark"}catch(e){}}for(i=0;i<r.length;i++)if(new RegExp(r[i][0],"i").test(location.pathname)){if(r[i][1])v=r[i][1];break}d.classList.add(v);d.setAttribute("data-color-mode",v);d.style.colorScheme=v})()`;
}

/**
 * Injects the boot script as the first thing in `<head>` of every HTML page Vite serves or builds. The
 * storage key is the app's own (`src/config.ts`), so the script reads what the app writes.
 */
export function colorModeBoot({
  storageKey = config.colorMode.storageKey,
}: {
  readonly storageKey?: string;
} = {}): Plugin {
  return {
    name: 'campaign-web:color-mode-boot',
    transformIndexHtml: {
      order: 'pre',
      handler: () => [
        {
          tag: 'script',
          attrs: { id: 'color-mode-boot' },
          children: colorModeBootScript(routes, storageKey),
          injectTo: 'head',
        },
      ],
    },
  };
}
