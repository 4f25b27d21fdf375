/**
 * Paths that ask for a file, never for a page: the app routes no path ending in one of these extensions, so a
 * missing one is a 404, not the SPA shell with a 200 (a "soft 404" to crawlers, and HTML where a script or an
 * image was expected). Anything else keeps reaching the app, which shows its own "Page Not Found":
 * `/campaign/1.5` is a page address with a bad id, not a file.
 */

/** Extensions of what crawlers, browsers and scanners ask for by name. Lower case; compared without case. */
export const FILE_EXTENSIONS: ReadonlySet<string> = new Set([
  // Text and data: robots.txt, sitemap.xml, security.txt, ads.txt, manifests, source maps.
  'txt',
  'xml',
  'json',
  'webmanifest',
  'map',
  'csv',
  'rss',
  'atom',
  // Code and styles.
  'js',
  'mjs',
  'cjs',
  'css',
  'wasm',
  // Images and icons: favicon.ico, apple-touch-icon.png.
  'ico',
  'png',
  'jpg',
  'jpeg',
  'gif',
  'webp',
  'avif',
  'svg',
  'bmp',
  // Fonts.
  'woff',
  'woff2',
  'ttf',
  'otf',
  'eot',
  // Media and documents.
  'mp4',
  'webm',
  'mp3',
  'ogg',
  'wav',
  'pdf',
  'zip',
  'gz',
  'br',
  // Pages by file name, and what scanners probe for (wp-login.php): never an address of this app.
  'html',
  'htm',
  'php',
  'asp',
  'aspx',
  'jsp',
  'cgi',
]);

/** Whether a decoded, `/`-joined request path (no leading slash) names a file by its extension. */
export function isFileLikePath(relative: string): boolean {
  const last = relative.slice(relative.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 && FILE_EXTENSIONS.has(last.slice(dot + 1).toLowerCase());
}
