// @vitest-environment node
import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createImageMiddleware,
  createImageServer,
  defaultImagesDir,
  IMAGE_LIMITS,
  ImageRequestError,
  parseImagePath,
  renderSlots,
} from '../../server/routes/images';
import { config } from '../../src/config';

function rejects(pathname: string): string {
  try {
    parseImagePath(pathname);
  } catch (error) {
    if (error instanceof ImageRequestError) return `${error.status} ${error.message}`;
    throw error;
  }
  throw new Error(`${pathname} was accepted`);
}

describe('the modifier contract', () => {
  it('is the one the URL builder uses', () => {
    expect(IMAGE_LIMITS.maxDimension).toBe(config.images.maxDimension);
    expect([...IMAGE_LIMITS.formats]).toEqual([...config.images.formats]);
    expect([...IMAGE_LIMITS.fits]).toEqual([...config.images.fits]);
    expect(config.images.endpoint).toBe('/_ipx');
  });

  it('reads allow-listed modifiers into ipx names, clamping sizes and quality', () => {
    expect(parseImagePath('/_ipx/f_webp&q_80&fit_cover&s_300x200/campaigns/a.jpg')).toEqual({
      source: 'campaigns/a.jpg',
      modifiers: { format: 'webp', quality: '80', fit: 'cover', resize: '300x200' },
    });
    expect(parseImagePath('/_ipx/w_5000,q_0/a.jpg').modifiers).toEqual({ width: '2048', quality: '1' });
    expect(parseImagePath('/_ipx/h_0&q_500/a.jpg').modifiers).toEqual({ height: '1', quality: '100' });
    expect(parseImagePath('/_ipx/s_9999x0/a.jpg').modifiers).toEqual({ resize: '2048x1' });
    expect(parseImagePath('/_ipx/w_300&h_200/a.jpg').modifiers).toEqual({ resize: '300x200' });
    expect(parseImagePath('/_ipx/_/a%20b.jpg')).toEqual({ source: 'a b.jpg', modifiers: {} });
  });

  it.each([
    [
      '/_ipx/blur_5/a.jpg',
      'Unknown image modifier "blur_5": use w_, h_, s_{w}x{h}, f_, q_ or fit_, joined by &.',
    ],
    [
      '/_ipx/width_5/a.jpg',
      'Unknown image modifier "width_5": use w_, h_, s_{w}x{h}, f_, q_ or fit_, joined by &.',
    ],
    ['/_ipx/w_abc/a.jpg', 'Width (w_) must be a whole number, not "abc".'],
    ['/_ipx/w_-5/a.jpg', 'Width (w_) must be a whole number, not "-5".'],
    ['/_ipx/w_1.5/a.jpg', 'Width (w_) must be a whole number, not "1.5".'],
    ['/_ipx/w_10&w_20/a.jpg', 'The image modifier w_ is given twice.'],
    ['/_ipx/f_gif/a.jpg', 'Format (f_) must be one of webp, avif, jpeg, png, not "gif".'],
    ['/_ipx/fit_crop/a.jpg', 'Fit (fit_) must be one of cover, contain, fill, inside, outside, not "crop".'],
    ['/_ipx/s_300/a.jpg', 'Size (s_) must look like s_300x200, not "s_300".'],
    ['/_ipx/s_3x2&w_5/a.jpg', 'Give the size either as s_{w}x{h} or as w_/h_, not both.'],
  ])('rejects %s with a clear 400', (pathname, message) => {
    expect(rejects(pathname)).toBe(`400 ${message}`);
  });

  it.each([
    '/_ipx/_/../package.json',
    '/_ipx/_/%2e%2e/%2e%2e/package.json',
    '/_ipx/_/..%2f..%2fpackage.json',
    '/_ipx/_/..%5c..%5cpackage.json',
    '/_ipx/_/campaigns/./a.jpg',
    '/_ipx/_//etc/passwd',
    '/_ipx/_/%2Fetc%2Fpasswd',
    '/_ipx/_/C:%5Cwindows',
    '/_ipx/_/a%00.jpg',
    '/_ipx/_/',
    '/_ipx/_',
    '/_ipx/_/%E0%A4%A',
  ])('refuses the path %s', (pathname) => {
    expect(rejects(pathname)).toMatch(/^400 /);
  });
});

describe('GET /_ipx/{modifiers}/{src}', () => {
  const handle = createImageServer();

  it('resizes a committed source to webp, cached as immutable', async () => {
    const res = await handle('GET', '/_ipx/f_webp&fit_cover&s_480x270/campaigns/campaign-1.jpg');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.subarray(0, 4).toString('ascii')).toBe('RIFF');
    expect(res.body.subarray(8, 12).toString('ascii')).toBe('WEBP');
    const meta = await sharp(res.body).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 480, 270]);
  });

  it('never enlarges past the source, and converts to the other allowed formats', async () => {
    const big = await handle('GET', '/_ipx/w_5000&f_png/campaigns/campaign-2.jpg');
    const meta = await sharp(big.body).metadata();
    expect([big.headers['content-type'], meta.format, meta.width, meta.height]).toEqual([
      'image/png',
      'png',
      1200,
      800,
    ]);
    const avif = await handle('GET', '/_ipx/w_64&f_avif/campaigns/campaign-3.jpg');
    expect(avif.headers['content-type']).toBe('image/avif');
  });

  it('answers 404 for a missing source and 400 for a bad modifier, as JSON', async () => {
    const missing = await handle('GET', '/_ipx/f_webp/campaigns/nope.jpg');
    expect(missing.status).toBe(404);
    expect(missing.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(missing.body.toString())).toEqual({
      message: 'No source image at campaigns/nope.jpg.',
    });
    const bad = await handle('GET', '/_ipx/rotate_90/campaigns/campaign-1.jpg');
    expect(bad.status).toBe(400);
    expect(JSON.parse(bad.body.toString()).message).toMatch(/^Unknown image modifier "rotate_90"/);
    expect((await handle('GET', '/_ipx/f_webp/campaigns')).status).toBe(404);
  });

  it('allows only GET and HEAD', async () => {
    const res = await handle('DELETE', '/_ipx/f_webp/campaigns/campaign-1.jpg');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
  });
});

describe('the image folder boundary', () => {
  let root: string;
  let handle: ReturnType<typeof createImageServer>;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'campaign-web-images-'));
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#0a0' } })
      .png()
      .toBuffer();
    await mkdir(path.join(root, 'images'));
    await writeFile(path.join(root, 'images', 'inside.png'), png);
    await writeFile(path.join(root, 'outside.png'), png);
    await writeFile(path.join(root, 'images', 'not-an-image.png'), 'hello');
    await symlink(path.join(root, 'outside.png'), path.join(root, 'images', 'link.png'));
    handle = createImageServer({ dir: path.join(root, 'images'), log: { warn: () => {}, error: () => {} } });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('serves what is inside', async () => {
    expect((await handle('GET', '/_ipx/_/inside.png')).status).toBe(200);
  });

  it('never reads outside, even through a symbolic link or an encoded climb', async () => {
    expect((await handle('GET', '/_ipx/_/link.png')).status).toBe(404);
    expect((await handle('GET', '/_ipx/_/%2e%2e/outside.png')).status).toBe(400);
    expect((await handle('GET', '/_ipx/_/../outside.png')).status).toBe(400);
  });

  it('answers 400 for a source that is no image', async () => {
    const res = await handle('GET', '/_ipx/f_webp/not-an-image.png');
    expect(res.status).toBe(400);
  });
});

describe('the render cache and the cap on renders in flight', () => {
  it('renders on half of the cores, and on half of the thread pool at most: the rest is for static files', () => {
    expect(renderSlots(16, 2)).toBe(1);
    expect(renderSlots(16, 8)).toBe(4);
    expect(renderSlots(16, 64)).toBe(8);
    expect(renderSlots(4, 8)).toBe(2);
    expect(renderSlots(5, 16)).toBe(2);
    expect(renderSlots(1, 1)).toBe(1);
    expect(renderSlots(4096, 4096)).toBe(512);
  });

  let root: string;
  const quiet = { warn: () => {}, error: () => {} };

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'campaign-web-image-cache-'));
    await mkdir(path.join(root, 'images'));
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#a00' } })
      .png()
      .toBuffer();
    await writeFile(path.join(root, 'images', 'a.png'), png);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('keeps each rendered variant on disk, so another process serves it without rendering', async () => {
    const options = { dir: path.join(root, 'images'), cacheDir: path.join(root, 'cache'), log: quiet };
    const first = await createImageServer(options)('GET', '/_ipx/w_16&f_webp/a.png');
    expect(first.status).toBe(200);
    const cached = await readdir(path.join(root, 'cache'));
    expect(cached).toEqual([expect.stringMatching(/^[0-9a-f]{64}\.webp$/)]);
    // No render may start or wait here: only the disk cache can answer.
    const noRenders = createImageServer({ ...options, maxRendersInFlight: 1, maxRendersQueued: 0 });
    const busy = noRenders('GET', '/_ipx/w_18&f_webp/a.png');
    const again = await noRenders('GET', '/_ipx/w_16&f_webp/a.png');
    expect(again.status).toBe(200);
    expect(again.headers['content-type']).toBe('image/webp');
    expect(again.body.equals(first.body)).toBe(true);
    expect((await noRenders('GET', '/_ipx/w_17&f_webp/a.png')).status).toBe(503);
    expect((await busy).status).toBe(200);
  });

  it('trims the disk cache, oldest first, to its byte budget', async () => {
    const cacheDir = path.join(root, 'small-cache');
    const handle = createImageServer({
      dir: path.join(root, 'images'),
      cacheDir,
      cacheMaxBytes: 1,
      log: quiet,
    });
    for (const width of [10, 11, 12])
      expect((await handle('GET', `/_ipx/w_${width}&f_png/a.png`)).status).toBe(200);
    expect(await readdir(cacheDir)).toHaveLength(0);
  });

  it('queues a page worth of renders, and answers a flood beyond the queue with a quick 503 and Retry-After', async () => {
    const handle = createImageServer({
      dir: path.join(root, 'images'),
      maxRendersInFlight: 2,
      maxRendersQueued: 3,
      log: quiet,
    });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => handle('GET', `/_ipx/w_${20 + i}&f_avif/a.png`)),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 503)).toHaveLength(7);
    expect(answers.find((answer) => answer.status === 503)?.headers['retry-after']).toBe('1');
    // Once the flood has passed, the same variants render again.
    expect((await handle('GET', '/_ipx/w_25&f_avif/a.png')).status).toBe(200);
  });
});

describe('createImageMiddleware', () => {
  it('serves /_ipx over HTTP (HEAD included) and passes everything else on', async () => {
    const middleware = createImageMiddleware();
    const server = createServer((req, res) =>
      middleware(req, res, () => {
        res.statusCode = 418;
        res.end();
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const res = await fetch(`${base}/_ipx/w_40&f_webp/campaigns/campaign-4.jpg`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const head = await fetch(`${base}/_ipx/w_40&f_webp/campaigns/campaign-4.jpg`, { method: 'HEAD' });
      expect(head.headers.get('content-length')).toBe(res.headers.get('content-length'));
      expect((await fetch(`${base}/_ipx/blur_3/campaigns/campaign-4.jpg`)).status).toBe(400);
      for (const passedOn of ['/', '/_ipxx/a', '/api/session', '/campaigns/campaign-4.jpg']) {
        expect((await fetch(`${base}${passedOn}`)).status, passedOn).toBe(418);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('fixture images', () => {
  it('exist for every seeded campaign, small and 1200x800', async () => {
    const seed = JSON.parse(await readFile(new URL('../../api/fixtures/seed.json', import.meta.url), 'utf8'));
    for (const campaign of seed.campaigns as { image: string }[]) {
      const file = path.join(defaultImagesDir(), campaign.image);
      expect((await stat(file)).size, campaign.image).toBeLessThan(80 * 1024);
      const meta = await sharp(file).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1200, 800]);
    }
  });
});
