/**
 * A prerendered page, arranged so that its first and largest paint wait for nothing but its HTML and its hero
 * image. In the shell's order the hero waits for everything else: the stylesheet, the image and the app's
 * scripts start together and share a phone's link, and the first paint comes after all of them. Here:
 *  - the hero's preload (React writes it for an `<img fetchpriority="high">`, with `imagesrcset` and
 *    `imagesizes`) comes first in `<head>` after the charset and viewport, so it is the first request the preload
 *    scanner makes;
 *  - the stylesheet is inlined as a `<style>` (7 kB gzip in all: a stylesheet of only what the page's first
 *    frame uses would be 5.4 to 5.8 kB, with the rest still to load before a client navigation could use it,
 *    for 2 kB less HTML); the server allows it by its hash like every inline script (server/plugins/inlineHashes.ts);
 *  - the app's scripts, their `modulepreload`s and the session preload wait in a `<template>` that a small
 *    inline script puts into `<head>` once the first paint is on screen and the hero has arrived (at most
 *    `config.startup.heroWaitMs` after the HTML, for a hero that does not come). The page reads and its links
 *    and forms work without them; the app hydrates later, by about the time the image takes alone.
 * The SPA shell (`200.html`) keeps its stylesheet and scripts as they are: it shows nothing without them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { config } from '../src/config.ts';

/** The `<template>` holding the tags that start the app. */
export const APP_START_ID = 'app-start';

/**
 * Moves the template's tags into `<head>`, once: when the page's first paint is on screen (Paint Timing's
 * `first-contentful-paint` entry, which comes after the frame is presented; a task after the next animation
 * frame where it is not reported) and the hero (`img[fetchpriority=high]` in `#root`, if any) is decoded or has
 * failed; at the latest `heroWaitMs` after the script ran (a stalled image, a hidden tab). It relies on no
 * timer or animation frame where the browser has Paint Timing and `scheduler.postTask`: a paused page clock
 * (Playwright's, in e2e) holds neither. Plain ES5, as the other inline scripts, so that an old browser runs
 * the app rather than failing here.
 */
export function appStartScript(heroWaitMs: number = config.startup.heroWaitMs): string {
  return `(function(){var s=0,n=1,q=window.scheduler,P=window.PerformanceObserver,h=document.querySelector('#root img[fetchpriority="high"]'),t=function(f,d){q&&q.postTask?q.postTask(f,{delay:d}):setTimeout(f,d)},go=function(){var c=document.getElementById(${JSON.stringify(APP_START_ID)});if(s||!c)return;s=1;document.head.appendChild(document.importNode(c.content,!0))},one=function(){--n||t(go,0)};t(go,${heroWaitMs});if(h&&h.decode){n=2;h.decode().then(one,one)}P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0?new P(function(l){l.getEntriesByName("first-contentful-paint").length&&one()}).observe({type:"paint",buffered:!0}):requestAnimationFrame(function(){t(one,0)})})()`;
}

/** `<script type="module" src>`, `<link rel="modulepreload">` and the session's `<link rel="preload" as="fetch">`. */
const START_TAG =
  /<script\b[^>]*\btype="module"[^>]*\bsrc=[^>]*><\/script>|<link\b[^>]*\brel="(?:modulepreload|preload)"[^>]*>/g;

function isStartTag(tag: string): boolean {
  return tag.startsWith('<script') || /\brel="modulepreload"/.test(tag) || /\bas="fetch"/.test(tag);
}

/**
 * The prerendered `html` arranged for its first paint (see the header). `stylesheets` maps each stylesheet's
 * `href` to its text; one the map lacks fails the build, as does a page with no module script.
 */
export function arrangeForFirstPaint(html: string, stylesheets: Readonly<Record<string, string>>): string {
  const head = /<head>([\s\S]*?)<\/head>/.exec(html);
  if (!head?.[1]) throw new Error('A prerendered page has no <head>.');
  let inner = head[1];
  const moved: string[] = [];
  inner = inner.replace(START_TAG, (tag) => {
    if (!isStartTag(tag)) return tag;
    // Low priority was for sharing the link with the stylesheet and the hero; by now they are in.
    moved.push(tag.replace(/\s+fetchpriority="low"/, ''));
    return '';
  });
  if (!moved.some((tag) => tag.startsWith('<script')))
    throw new Error('A prerendered page has no module script.');
  inner = inner.replace(/<link\b[^>]*\brel="stylesheet"[^>]*>/g, (tag) => {
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1] ?? '';
    const text = stylesheets[href];
    if (text === undefined) throw new Error(`No text for the stylesheet ${href} to inline.`);
    if (/<\/style/i.test(text)) throw new Error(`The stylesheet ${href} would end its <style> element.`);
    // The disabled link is never fetched; it tells Vite's chunk loader, which adds the stylesheet a lazy chunk
    // lists unless a `link[rel=stylesheet]` with its URL is there, that these rules are in already.
    return `<style>${text}</style><link rel="stylesheet" href="${href}" disabled>`;
  });
  const hero = /<link\b(?=[^>]*\brel="preload")(?=[^>]*\bas="image")(?=[^>]*\bfetchPriority="high")[^>]*>/i;
  const preload = hero.exec(inner)?.[0];
  if (preload) {
    // After the viewport's <meta>: before it, `imagesizes` is read against a phone's default 980 px layout
    // viewport, and the preload asked for a larger candidate than the <img> then took (both were fetched).
    const viewport = /<meta name="viewport"[^>]*>/.exec(inner);
    if (!viewport)
      throw new Error('A prerendered page has no viewport <meta> to put its hero preload after.');
    inner = inner.replace(preload, '').replace(viewport[0], `${viewport[0]}${preload}`);
  }
  const start = `<template id="${APP_START_ID}">${moved.join('')}</template><script>${appStartScript()}</script>`;
  const body = html.slice(head.index + head[0].length);
  if (!body.includes('</body>')) throw new Error('A prerendered page has no </body>.');
  return `${html.slice(0, head.index)}<head>${inner}</head>${body.replace('</body>', `${start}</body>`)}`;
}

/** The text of every stylesheet the shell links, by `href`, read from the build's output folder. */
export async function readStylesheets(
  outDir: string,
  base: string,
  shell: string,
): Promise<Record<string, string>> {
  const texts: Record<string, string> = {};
  for (const [tag] of shell.matchAll(/<link\b[^>]*\brel="stylesheet"[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (href?.startsWith(base)) texts[href] = await readFile(join(outDir, href.slice(base.length)), 'utf8');
  }
  return texts;
}
