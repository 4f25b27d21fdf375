/**
 * The origins a build is given: `PUBLIC_ORIGIN`, where the site lives (absolute URLs in the sitemap, canonical
 * links and link previews), and `API_ORIGIN`, where a static host proxies the API (`_redirects`).
 */

/** An origin given at build (`PUBLIC_ORIGIN`, `API_ORIGIN`), checked: a typo must stop the build, not ship. */
export function originFrom(name: string, value: string | undefined): string | undefined {
  // PUBLIC_ORIGIN may list several origins (the API accepts writes from each); the first is the site's own.
  const first = value?.split(',')[0]?.trim();
  if (!first) return undefined;
  let url: URL;
  try {
    url = new URL(first);
  } catch {
    throw new Error(
      `${name}=${JSON.stringify(first)} is not a URL: expected an origin such as https://campaigns.example.`,
    );
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== first.replace(/\/$/, '')) {
    throw new Error(
      `${name}=${JSON.stringify(first)} is not an origin: expected the scheme and host only, such as ${url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : 'https://campaigns.example'}.`,
    );
  }
  return url.origin;
}
