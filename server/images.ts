import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IPX } from 'ipx';
import type { Logger } from './db.ts';
import type { Middleware } from './http.ts';

/** The same-origin optimisation path: `/_ipx/{modifiers}/{src}`. */
export const IMAGE_ENDPOINT = '/_ipx';

/** The source images, committed with the repo. Nothing outside this folder is ever read. */
export function defaultImagesDir(): string {
  return fileURLToPath(new URL('./fixtures/images/', import.meta.url));
}

export type ImageFormat = 'webp' | 'avif' | 'jpeg' | 'png';
export type ImageFit = 'cover' | 'contain' | 'fill' | 'inside' | 'outside';

/**
 * The modifier contract. src/config.ts (`config.images`) holds the same numbers for the URL builder, and
 * tests/server.images.test.ts checks that the two agree.
 */
export const IMAGE_LIMITS = {
  /** Past this a resize costs far more than any screen gains. */
  maxDimension: 2048,
  minQuality: 1,
  maxQuality: 100,
  formats: ['webp', 'avif', 'jpeg', 'png'] as readonly ImageFormat[],
  fits: ['cover', 'contain', 'fill', 'inside', 'outside'] as readonly ImageFit[],
} as const;

/**
 * A successful answer is a pure function of its URL and the committed source, so browsers may keep it for a
 * year without asking again; a new source image gets a new file name.
 */
const CACHE_CONTROL_OK = 'public, max-age=31536000, immutable';

/** Rendered images kept in memory, so a page reload does not resize every image again. */
const RENDER_CACHE_ENTRIES = 64;

export interface ImageRequest {
  /** Path of the source relative to the image folder, `/`-separated, already checked. */
  source: string;
  /** Modifiers in ipx's own names, already checked and clamped. */
  modifiers: Partial<Record<'width' | 'height' | 'resize' | 'format' | 'quality' | 'fit', string>>;
}

export class ImageRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const MODIFIER_KEYS = ['w', 'h', 's', 'f', 'q', 'fit'] as const;
type ModifierKey = (typeof MODIFIER_KEYS)[number];

function clampInt(raw: string, min: number, max: number, what: string): string {
  if (!/^\d{1,9}$/.test(raw))
    throw new ImageRequestError(400, `${what} must be a whole number, not "${raw}".`);
  return String(Math.min(max, Math.max(min, Number(raw))));
}

function dimension(raw: string, what: string): string {
  return clampInt(raw, 1, IMAGE_LIMITS.maxDimension, what);
}

function parseModifiers(raw: string): ImageRequest['modifiers'] {
  const modifiers: ImageRequest['modifiers'] = {};
  if (raw === '_') return modifiers;
  const seen = new Set<ModifierKey>();
  for (const part of raw.split(/[&,]/)) {
    const separator = part.indexOf('_');
    const key = (separator === -1 ? part : part.slice(0, separator)) as ModifierKey;
    const value = separator === -1 ? '' : part.slice(separator + 1);
    if (!MODIFIER_KEYS.includes(key)) {
      throw new ImageRequestError(
        400,
        `Unknown image modifier "${part.slice(0, 40)}": use w_, h_, s_{w}x{h}, f_, q_ or fit_, joined by &.`,
      );
    }
    if (seen.has(key)) throw new ImageRequestError(400, `The image modifier ${key}_ is given twice.`);
    seen.add(key);
    switch (key) {
      case 'w':
        modifiers.width = dimension(value, 'Width (w_)');
        break;
      case 'h':
        modifiers.height = dimension(value, 'Height (h_)');
        break;
      case 's': {
        const match = /^(\d+)x(\d+)$/.exec(value);
        if (!match?.[1] || !match[2]) {
          throw new ImageRequestError(
            400,
            `Size (s_) must look like s_300x200, not "s_${value.slice(0, 40)}".`,
          );
        }
        modifiers.resize = `${dimension(match[1], 'Width in s_')}x${dimension(match[2], 'Height in s_')}`;
        break;
      }
      case 'f':
        if (!IMAGE_LIMITS.formats.includes(value as ImageFormat)) {
          throw new ImageRequestError(
            400,
            `Format (f_) must be one of ${IMAGE_LIMITS.formats.join(', ')}, not "${value.slice(0, 40)}".`,
          );
        }
        modifiers.format = value;
        break;
      case 'q':
        modifiers.quality = clampInt(value, IMAGE_LIMITS.minQuality, IMAGE_LIMITS.maxQuality, 'Quality (q_)');
        break;
      case 'fit':
        if (!IMAGE_LIMITS.fits.includes(value as ImageFit)) {
          throw new ImageRequestError(
            400,
            `Fit (fit_) must be one of ${IMAGE_LIMITS.fits.join(', ')}, not "${value.slice(0, 40)}".`,
          );
        }
        modifiers.fit = value;
        break;
    }
  }
  if (modifiers.resize && (modifiers.width || modifiers.height)) {
    throw new ImageRequestError(400, 'Give the size either as s_{w}x{h} or as w_/h_, not both.');
  }
  // Separate width and height would be two resizes in a row; as one s_ they are one, as nuxt/image sends them.
  if (modifiers.width && modifiers.height) {
    modifiers.resize = `${modifiers.width}x${modifiers.height}`;
    delete modifiers.width;
    delete modifiers.height;
  }
  return modifiers;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new ImageRequestError(400, 'The image path is not valid percent-encoding.');
  }
}

/**
 * Reads `/_ipx/{modifiers}/{src}` from a raw (still percent-encoded) pathname. Throws ImageRequestError 400
 * for unknown or malformed modifiers and for any source path that is absolute, empty or climbs (`..`, also
 * when encoded as `%2e%2e` or hidden behind an encoded `/` or `\`).
 */
export function parseImagePath(pathname: string): ImageRequest {
  const [empty, endpoint, rawModifiers, ...rawSource] = pathname.split('/');
  if (
    empty !== '' ||
    `/${endpoint}` !== IMAGE_ENDPOINT ||
    rawModifiers === undefined ||
    rawSource.length === 0
  ) {
    throw new ImageRequestError(
      400,
      `Image URLs look like ${IMAGE_ENDPOINT}/{modifiers}/{path}, e.g. /_ipx/w_300&f_webp/a.jpg.`,
    );
  }
  const modifiers = parseModifiers(decodeSegment(rawModifiers));
  const segments = rawSource.map(decodeSegment);
  const unsafe = segments.some(
    (segment) =>
      segment === '' ||
      segment === '.' ||
      segment === '..' ||
      /[/\\\0:]/.test(segment) ||
      segment.length > 255,
  );
  if (unsafe)
    throw new ImageRequestError(400, 'The image path must be a plain relative path inside the image folder.');
  return { source: segments.join('/'), modifiers };
}

export interface RenderedImage {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

function errorResponse(status: number, message: string): RenderedImage {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: Buffer.from(JSON.stringify({ message })),
  };
}

export interface ImageServerOptions {
  /** Folder of source images; defaults to server/fixtures/images. */
  dir?: string;
  log?: Logger;
}

/**
 * The optimiser as a function of method and URL. Sources are checked to resolve (symbolic links included)
 * inside `dir` before ipx (sharp) reads them; a missing one is a 404.
 */
export function createImageServer(options: ImageServerOptions = {}) {
  const dir = path.resolve(options.dir ?? defaultImagesDir());
  const log = options.log ?? console;
  let ipx: Promise<IPX> | undefined;
  const rendered = new Map<string, Promise<RenderedImage>>();

  // ipx and sharp load on the first image, so `vite` starts as fast as before and `vite build` never loads them.
  function getIpx(): Promise<IPX> {
    ipx ??= import('ipx').then(({ createIPX, ipxFSStorage }) =>
      createIPX({ storage: ipxFSStorage({ dir }) }),
    );
    return ipx;
  }

  async function resolveSource(source: string): Promise<{ mtimeMs: number } | undefined> {
    const root = await realpath(dir);
    let real: string;
    try {
      real = await realpath(path.join(dir, source));
    } catch {
      return undefined;
    }
    if (!real.startsWith(root + path.sep)) return undefined;
    const stats = await stat(real);
    return stats.isFile() ? { mtimeMs: stats.mtimeMs } : undefined;
  }

  async function render(request: ImageRequest): Promise<RenderedImage> {
    const { data, format } = await (await getIpx())(request.source, request.modifiers).process();
    const body = typeof data === 'string' ? Buffer.from(data) : data;
    return {
      status: 200,
      headers: {
        'content-type': `image/${format ?? 'jpeg'}`,
        'cache-control': CACHE_CONTROL_OK,
        'x-content-type-options': 'nosniff',
      },
      body,
    };
  }

  return async function handle(method: string, url: string): Promise<RenderedImage> {
    if (method !== 'GET' && method !== 'HEAD') {
      const response = errorResponse(405, `${method} is not allowed on ${IMAGE_ENDPOINT}; use GET.`);
      response.headers.allow = 'GET, HEAD';
      return response;
    }
    let request: ImageRequest;
    try {
      request = parseImagePath(url.split('?')[0] ?? '');
    } catch (error) {
      if (error instanceof ImageRequestError) return errorResponse(error.status, error.message);
      throw error;
    }
    const source = await resolveSource(request.source);
    if (!source) return errorResponse(404, `No source image at ${request.source.slice(0, 200)}.`);

    const key = `${request.source}|${source.mtimeMs}|${JSON.stringify(request.modifiers)}`;
    let result = rendered.get(key);
    if (!result) {
      result = render(request);
      rendered.set(key, result);
      if (rendered.size > RENDER_CACHE_ENTRIES) rendered.delete(rendered.keys().next().value as string);
      result.catch(() => rendered.delete(key));
    }
    try {
      return await result;
    } catch (error) {
      const status = (error as { statusCode?: unknown }).statusCode;
      if (status === 400) return errorResponse(400, `The source image ${request.source} cannot be read.`);
      if (status === 403 || status === 404)
        return errorResponse(404, `No source image at ${request.source}.`);
      log.error(`[images] ${url} failed:`, error);
      return errorResponse(500, 'The image could not be rendered.');
    }
  };
}

/** Connect middleware for `vite` and `vite preview`; everything outside `/_ipx/` goes to `next()`. */
export function createImageMiddleware(options: ImageServerOptions = {}): Middleware {
  const handle = createImageServer(options);
  const log = options.log ?? console;
  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const response = await handle(method, req.url ?? '/');
    res.statusCode = response.status;
    for (const [name, value] of Object.entries(response.headers)) res.setHeader(name, value);
    res.setHeader('content-length', response.body.length);
    res.end(method === 'HEAD' ? undefined : response.body);
  };
  return (req, res, next) => {
    const url = req.url ?? '/';
    if (
      url !== IMAGE_ENDPOINT &&
      !url.startsWith(`${IMAGE_ENDPOINT}/`) &&
      !url.startsWith(`${IMAGE_ENDPOINT}?`)
    ) {
      next();
      return;
    }
    serve(req, res).catch((error: unknown) => {
      log.error(`[images] ${req.method} ${req.url} failed:`, error);
      if (res.headersSent) res.destroy();
      else {
        res.statusCode = 500;
        res.end();
      }
    });
  };
}
