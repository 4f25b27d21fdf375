/**
 * Every page this app serves arrives with its content rendered (prerendered HTML, or the shell with the
 * loading state), so its JavaScript is needed for interaction, never for the first paint. Browsers fetch
 * module scripts and `modulepreload`s at high priority all the same, beside the stylesheet and the page's
 * largest image, which are what the first paint waits for. `fetchpriority="low"` on the entry script and its
 * preloads lets the stylesheet and the hero image go first on a slow connection; on a fast one nothing
 * changes. (Lighthouse's simulated throttling counts high-priority scripts as render-blocking: with them
 * the mobile first paint of `/` was simulated at 1.8 s, without them at 0.8 s.)
 */
import type { Plugin } from 'vite';

export const LOW_PRIORITY = 'fetchpriority="low"';

/** Adds `fetchpriority="low"` to module script tags and `modulepreload` links that have no priority yet. */
export function lowerScriptPriority(html: string): string {
  return html.replace(/<(script|link)\b([^>]*)>/g, (tag, name: string, attributes: string) => {
    if (/\sfetchpriority=/i.test(attributes)) return tag;
    const isModuleScript =
      name === 'script' && /\stype="module"/.test(attributes) && /\ssrc=/.test(attributes);
    const isModulePreload = name === 'link' && /\srel="modulepreload"/.test(attributes);
    return isModuleScript || isModulePreload ? `<${name} ${LOW_PRIORITY}${attributes}>` : tag;
  });
}

/** The build's `index.html` (and so every page prerendered from it) asks for its scripts at low priority. */
export function scriptPriority(): Plugin {
  return {
    name: 'campaign-web:script-priority',
    apply: 'build',
    transformIndexHtml: { order: 'post', handler: lowerScriptPriority },
  };
}
