/**
 * What a link preview and a search engine read in a prerendered page's `<head>`: the canonical link, Open Graph
 * and Twitter card tags, taken from the page's own title and description (as renderDocument wrote them) and its
 * preview image (a campaign's picture through the image endpoint). Open Graph URLs must be absolute, so they
 * need the site's origin (`PUBLIC_ORIGIN` at build): without it the canonical link is relative (which search
 * engines resolve) and `og:url` and the image are left out (a preview then shows the title and text only).
 */
import type { PreviewImage } from '../core/payload.ts';

/** The site's name in previews, as the app calls itself in every title. */
const SITE_NAME = 'campaign-web';

export interface PageMetaInput {
  /** The page's path (`/campaign/1`). */
  readonly path: string;
  readonly image?: PreviewImage | undefined;
  /** `PUBLIC_ORIGIN` as the build saw it (build/crawlerFiles.ts `originFrom`). */
  readonly origin: string | undefined;
}

function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * The document's text of `<title>` or of a meta tag's content, as written: HTML-escaped already (renderDocument
 * escapes `"` too), so it goes into an attribute as it is.
 */
function written(document: string, pattern: RegExp): string {
  return pattern.exec(document)?.[1] ?? '';
}

/** The tags, in the order previews and crawlers document them. */
export function pageMetaTags(document: string, input: PageMetaInput): string {
  const title = written(document, /<title>([^<]*)<\/title>/);
  const description = written(document, /<meta name="description" content="([^"]*)"/);
  const url = `${input.origin ?? ''}${input.path}`;
  const image = input.origin && input.image ? input.image : undefined;
  const tags = [
    `<link rel="canonical" href="${escapeAttribute(url)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${SITE_NAME}">`,
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:description" content="${description}">`,
  ];
  if (input.origin) tags.push(`<meta property="og:url" content="${escapeAttribute(url)}">`);
  if (image) {
    tags.push(
      `<meta property="og:image" content="${escapeAttribute(`${input.origin}${image.url}`)}">`,
      `<meta property="og:image:width" content="${image.width}">`,
      `<meta property="og:image:height" content="${image.height}">`,
      `<meta property="og:image:alt" content="${title}">`,
    );
  }
  tags.push(`<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`);
  return tags.join('');
}

/** The document with the page's tags at the end of its `<head>`. */
export function withPageMeta(document: string, input: PageMetaInput): string {
  if (!document.includes('</head>')) throw new Error(`The prerendered ${input.path} has no </head>.`);
  return document.replace('</head>', () => `${pageMetaTags(document, input)}</head>`);
}
