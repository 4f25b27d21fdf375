import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { IPX } from 'ipx';
import pLimit from 'p-limit';
import { limitKey } from '../../api/clientAddress.ts';
import { loggable, loggablePath } from '../../api/logSafe.ts';
import type { Logger, Middleware } from '../http.ts';
import type { MetricsSources } from '../plugins/metrics.ts';
import { consoleLogger, logSecurityEvent } from '../plugins/requestLog.ts';
import { CACHE } from '../plugins/securityHeaders.ts';

/** The same-origin optimisation path: `/_ipx/{modifiers}/{src}`. */
export const IMAGE_ENDPOINT = '/_ipx';

/** The source images of a checkout, committed with the demo API's fixtures (the dev server's; the production
 * server names its folder, server/layout.ts). Nothing outside this folder is ever read. */
export function defaultImagesDir(): string {
  return fileURLToPath(new URL('../../api/fixtures/images/', import.meta.url));
}

export type ImageFormat = 'webp' | 'avif' | 'jpeg' | 'png';
export type ImageFit = 'cover' | 'contain' | 'fill' | 'inside' | 'outside';

/**
 * The modifier contract. src/config.ts (`config.images`) holds the same numbers for the URL builder, and
 * tests/server/images.test.ts checks that the two agree.
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
  /** Folder of source images; defaults to api/fixtures/images. */
  dir?: string;
  log?: Logger;
  /**
   * Folder where rendered variants are kept across restarts (the production server sets it); without it only
   * the in-memory cache is used, as in `vite` dev.
   */
  cacheDir?: string;
  /** The disk cache is trimmed, oldest first, to this many bytes. */
  cacheMaxBytes?: number;
  /** Renders running at once; more wait their turn. */
  maxRendersInFlight?: number;
  /**
   * Renders waiting for a turn. A request past that gets a quick 503 with Retry-After, so a flood of distinct
   * sizes and formats cannot queue up work for minutes; cached variants are still served. A page's own images
   * (a few dozen at most) always fit.
   */
  maxRendersQueued?: number;
}

export const IMAGE_CACHE_DEFAULTS = {
  maxBytes: 256 * 1024 * 1024,
  maxRendersQueued: 32,
} as const;

/**
 * Renders at once: half of the cores, and never more than half of libuv's thread pool. A render holds a pool
 * thread for its whole length and, with libvips on one thread each (`sharp.concurrency(1)`, below), one core:
 * the other half of both stays free for static files and password hashes. Measured on 2 cores with 12 renders
 * asked for at once (scripts/bench/bench-files-under-renders.mjs): half the pool alone (8 renders on 16 threads)
 * left the entry script 10x slower than idle, since the cores, not the threads, ran out.
 */
export function renderSlots(
  poolSize = Number(process.env.UV_THREADPOOL_SIZE) || 4,
  cores = availableParallelism(),
): number {
  return Math.max(1, Math.min(Math.floor(Math.min(poolSize, 1024) / 2), Math.floor(cores / 2)));
}

/**
 * Rendered variants on disk, named by a hash of source, its mtime and the modifiers, bounded in bytes. The
 * index lives in memory (insertion order is age); it is rebuilt from the folder on first use.
 */
function createDiskCache(dir: string, maxBytes: number, log: Logger) {
  let index: Promise<Map<string, number>> | undefined;
  const load = () => {
    index ??= (async () => {
      await mkdir(dir, { recursive: true });
      const entries = await Promise.all(
        (await readdir(dir))
          .filter((name) => /^[0-9a-f]{64}\.(webp|avif|jpeg|png)$/.test(name))
          .map(async (name) => ({ name, ...(await stat(path.join(dir, name))) })),
      );
      entries.sort((a, b) => a.mtimeMs - b.mtimeMs);
      return new Map(entries.map((entry) => [entry.name, entry.size]));
    })();
    return index;
  };
  const nameOf = (key: string, format: string) =>
    `${createHash('sha256').update(key).digest('hex')}.${format}`;
  return {
    async get(key: string): Promise<RenderedImage | undefined> {
      const files = await load();
      for (const format of IMAGE_LIMITS.formats) {
        const name = nameOf(key, format);
        if (!files.has(name)) continue;
        try {
          return { status: 200, headers: okHeaders(format), body: await readFile(path.join(dir, name)) };
        } catch {
          files.delete(name);
        }
      }
      return undefined;
    },
    async put(key: string, format: string, body: Buffer): Promise<void> {
      const files = await load();
      const name = nameOf(key, format);
      // Written aside and renamed, so a crash mid-write never leaves half an image under the real name.
      const temporary = path.join(dir, `${name}.${process.pid}.tmp`);
      try {
        await writeFile(temporary, body);
        await rename(temporary, path.join(dir, name));
      } catch (error) {
        log.warn(`[images] could not cache a rendered image in ${dir}:`, error);
        await rm(temporary, { force: true });
        return;
      }
      files.set(name, body.length);
      let total = 0;
      for (const size of files.values()) total += size;
      for (const [oldest, size] of files) {
        if (total <= maxBytes) break;
        files.delete(oldest);
        total -= size;
        await rm(path.join(dir, oldest), { force: true });
      }
    },
  };
}

function okHeaders(format: string): Record<string, string> {
  return {
    'content-type': `image/${format}`,
    'cache-control': CACHE_CONTROL_OK,
    'x-content-type-options': 'nosniff',
  };
}

class BusyError extends Error {}

/** A render the caller's admission check refused (a rate limit): its answer, never cached as the variant's. */
class RefusedError extends Error {
  constructor(readonly response: RenderedImage) {
    super('render refused');
  }
}

/**
 * Asked before a variant is rendered (not when it is served from a cache): undefined lets the render go on,
 * an answer refuses it with that answer (the server's per-address limit on new variants).
 */
export type AdmitRender = () => Promise<RenderedImage | undefined>;

/**
 * The optimiser as a function of method and URL. Sources are checked to resolve (symbolic links included)
 * inside `dir` before ipx (sharp) reads them; a missing one is a 404.
 */
export function createImageServer(options: ImageServerOptions = {}) {
  const dir = path.resolve(options.dir ?? defaultImagesDir());
  const log = options.log ?? console;
  let ipx: Promise<IPX> | undefined;
  const rendered = new Map<string, Promise<RenderedImage>>();
  const disk = options.cacheDir
    ? createDiskCache(options.cacheDir, options.cacheMaxBytes ?? IMAGE_CACHE_DEFAULTS.maxBytes, log)
    : undefined;
  const limit = pLimit(options.maxRendersInFlight ?? Number.POSITIVE_INFINITY);
  const maxQueued = options.maxRendersQueued ?? Number.POSITIVE_INFINITY;

  // ipx and sharp load on the first image, so `vite` starts as fast as before and `vite build` never loads them.
  function getIpx(): Promise<IPX> {
    ipx ??= Promise.all([import('ipx'), import('sharp')]).then(([{ createIPX, ipxFSStorage }, sharp]) => {
      // One libvips thread per render (its default is one per core): renderSlots() bounds the cores renders take.
      sharp.default.concurrency(1);
      return createIPX({ storage: ipxFSStorage({ dir }) });
    });
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

  async function render(key: string, request: ImageRequest, admit?: AdmitRender): Promise<RenderedImage> {
    const cached = await disk?.get(key);
    if (cached) return cached;
    const refusal = await admit?.();
    if (refusal) throw new RefusedError(refusal);
    // Checked and queued in one synchronous step, so concurrent requests cannot all slip under the cap.
    if (limit.activeCount >= limit.concurrency && limit.pendingCount >= maxQueued) throw new BusyError();
    return limit(async () => {
      const { data, format = 'jpeg' } = await (await getIpx())(request.source, request.modifiers).process();
      const body = typeof data === 'string' ? Buffer.from(data) : data;
      await disk?.put(key, format, body);
      return { status: 200, headers: okHeaders(format), body };
    });
  }

  // Renders running and waiting, for the server's metrics.
  const renders = () => ({ inFlight: limit.activeCount, queued: limit.pendingCount });
  return Object.assign(handle, { renders });

  async function handle(method: string, url: string, admit?: AdmitRender): Promise<RenderedImage> {
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
      result = render(key, request, admit);
      rendered.set(key, result);
      if (rendered.size > RENDER_CACHE_ENTRIES) rendered.delete(rendered.keys().next().value as string);
      result.catch(() => rendered.delete(key));
    }
    try {
      return await result;
    } catch (error) {
      if (error instanceof RefusedError) return error.response;
      if (error instanceof BusyError) {
        const response = errorResponse(503, 'The image optimiser is busy; try again in a moment.');
        response.headers['retry-after'] = '1';
        return response;
      }
      const status = (error as { statusCode?: unknown }).statusCode;
      if (status === 400) return errorResponse(400, `The source image ${request.source} cannot be read.`);
      if (status === 403 || status === 404)
        return errorResponse(404, `No source image at ${request.source}.`);
      log.error(`[images] ${loggablePath(url)} failed:`, loggable(error));
      return errorResponse(500, 'The image could not be rendered.');
    }
  }
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
      log.error(`[images] ${req.method} ${loggablePath(req.url)} failed:`, loggable(error));
      if (res.headersSent) res.destroy();
      else {
        res.statusCode = 500;
        res.end();
      }
    });
  };
}

export interface ImageRoutesOptions {
  /** Source images. */
  dir: string;
  /** Where rendered variants are kept. */
  cacheDir: string;
  maxRendersInFlight?: number;
  /** The metrics read the renders in flight and queued from here. */
  sources: MetricsSources;
}

/**
 * The optimiser in the production server (the dev server mounts `createImageMiddleware`). Only a render counts
 * against the address's limit (the root's `rateLimiters`, server/plugins/rateLimit.ts): cached variants cost a
 * file read.
 */
export const imageRoutes: FastifyPluginAsync<ImageRoutesOptions> = async (app, options) => {
  const images = createImageServer({
    dir: options.dir,
    cacheDir: options.cacheDir,
    maxRendersInFlight: options.maxRendersInFlight ?? renderSlots(),
    maxRendersQueued: IMAGE_CACHE_DEFAULTS.maxRendersQueued,
    log: consoleLogger(app.log),
  });
  options.sources.imageRenders = images.renders;
  const imageHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const response = await images(request.method, request.raw.url ?? request.url, async () => {
      const verdict = await app.rateLimiters.imageVariants(request);
      reply.headers(verdict.headers);
      if (verdict.retryAfterSeconds === null) return undefined;
      logSecurityEvent(request.log, {
        event: 'rate-limited',
        address: limitKey(request.ip),
        limit: 'image-variants',
      });
      return {
        status: 429,
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'cache-control': CACHE.never,
          'retry-after': String(verdict.retryAfterSeconds),
        },
        body: Buffer.from(
          JSON.stringify({
            message: `Too many new image sizes from this address; try again in ${verdict.retryAfterSeconds} s.`,
          }),
        ),
      };
    });
    reply.code(response.status).headers(response.headers);
    return reply.send(response.body);
  };
  app.all(IMAGE_ENDPOINT, imageHandler);
  app.all(`${IMAGE_ENDPOINT}/*`, imageHandler);
};
