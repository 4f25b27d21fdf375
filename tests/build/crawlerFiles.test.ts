// @vitest-environment node
/**
 * What the build writes for crawlers and static hosts (build/crawlerFiles.ts): robots.txt, sitemap.xml,
 * _redirects and 404.html, from the route table, the route rules and the prerendered paths.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redirectsFile, robotsTxt, writeCrawlerFiles } from '../../build/crawlerFiles';
import { originFrom } from '../../build/siteOrigin';
import { routeRules } from '../../core/routeRules';

const PRERENDERED = ['/', '/campaign/1', '/campaign/2', '/campaign/components/info', '/login'];

describe('an origin given at build', () => {
  it('is the scheme and host, without a trailing slash; of a list, the first', () => {
    expect(originFrom('PUBLIC_ORIGIN', 'https://campaigns.example')).toBe('https://campaigns.example');
    expect(originFrom('PUBLIC_ORIGIN', 'https://campaigns.example/')).toBe('https://campaigns.example');
    expect(originFrom('PUBLIC_ORIGIN', 'http://localhost:4173')).toBe('http://localhost:4173');
    expect(originFrom('PUBLIC_ORIGIN', ' https://a.example , https://b.example')).toBe('https://a.example');
  });

  it('is absent when unset or empty', () => {
    expect(originFrom('PUBLIC_ORIGIN', undefined)).toBeUndefined();
    expect(originFrom('PUBLIC_ORIGIN', '')).toBeUndefined();
    expect(originFrom('PUBLIC_ORIGIN', ' , ')).toBeUndefined();
  });

  it('stops the build with the variable, the value and what is expected when it is no origin', () => {
    expect(() => originFrom('PUBLIC_ORIGIN', 'campaigns.example')).toThrow(
      'PUBLIC_ORIGIN="campaigns.example" is not a URL: expected an origin such as https://campaigns.example.',
    );
    expect(() => originFrom('API_ORIGIN', 'https://api.example/api')).toThrow(
      'API_ORIGIN="https://api.example/api" is not an origin: expected the scheme and host only, such as https://api.example.',
    );
    expect(() => originFrom('PUBLIC_ORIGIN', 'ftp://files.example')).toThrow(
      /is not an origin: expected the scheme and host only, such as https:\/\/campaigns\.example\.$/,
    );
    expect(() => originFrom('PUBLIC_ORIGIN', 'https://campaigns.example?x=1')).toThrow(/not an origin/);
  });
});

describe('robots.txt', () => {
  it('keeps crawlers out of the API and the signed-in pages, and names the sitemap', () => {
    expect(robotsTxt('https://campaigns.example')).toBe(
      [
        '# Every public page may be crawled; the signed-in pages and the API are not pages.',
        'User-agent: *',
        'Disallow: /api/',
        'Disallow: /home',
        'Disallow: /profile',
        '',
        'Sitemap: https://campaigns.example/sitemap.xml',
        '',
      ].join('\n'),
    );
  });

  it('names no sitemap without the origin, since the Sitemap line must be absolute', () => {
    const robots = robotsTxt(undefined);
    expect(robots).not.toContain('Sitemap');
    expect(robots).toContain('Disallow: /home\n');
  });
});

describe('_redirects', () => {
  const lines = (file: string) => file.split('\n').filter((line) => line !== '' && !line.startsWith('#'));

  it("has the route rules' redirects, then the SPA shell for the app's pages that are no files", () => {
    expect(lines(redirectsFile({ rules: routeRules, prerendered: PRERENDERED }))).toEqual([
      '/campaigns / 307',
      '/campaigns/* / 307',
      '/signin /login 307',
      '/campaign/components /campaign/components/info 307',
      '/home /200.html 200',
      '/campaign/:id /200.html 200',
      '/profile /200.html 200',
    ]);
  });

  it('proxies the API and the three form posts to API_ORIGIN first, when it is set', () => {
    const file = lines(
      redirectsFile({ rules: {}, prerendered: PRERENDERED, apiOrigin: 'https://app.campaigns.example' }),
    );
    expect(file.slice(0, 4)).toEqual([
      '/api/* https://app.campaigns.example/api/:splat 200',
      '/login https://app.campaigns.example/login 200!',
      '/logout https://app.campaigns.example/logout 200!',
      '/profile https://app.campaigns.example/profile 200!',
    ]);
    expect(file).not.toContain('/campaigns / 307');
  });

  it('leaves out a page the build prerendered: the host serves its file', () => {
    const file = lines(redirectsFile({ rules: {}, prerendered: [...PRERENDERED, '/home'] }));
    expect(file).not.toContain('/home /200.html 200');
    expect(file).toContain('/profile /200.html 200');
  });
});

describe('writing them into a build', () => {
  let dist: string;
  const SHELL = '<!doctype html><title>shell</title>';

  beforeAll(async () => {
    dist = await mkdtemp(path.join(tmpdir(), 'campaign-web-crawlers-'));
    await mkdir(path.join(dist, '_app/builds/meta'), { recursive: true });
    await writeFile(path.join(dist, '_app/builds/latest.json'), JSON.stringify({ id: 'b1', timestamp: 1 }));
    await writeFile(
      path.join(dist, '_app/builds/meta/b1.json'),
      JSON.stringify({ id: 'b1', timestamp: 1, rules: routeRules, prerendered: ['/', '/campaign/7'] }),
    );
    await writeFile(path.join(dist, '200.html'), SHELL);
  });

  afterAll(async () => {
    await rm(dist, { recursive: true, force: true });
  });

  it('writes no sitemap.xml (the server renders it from the database), and 404.html is the SPA shell', async () => {
    const written = await writeCrawlerFiles({
      distDir: dist,
      origin: 'https://campaigns.example',
      apiOrigin: undefined,
    });
    expect(written).toEqual(['robots.txt', '_redirects', '404.html']);
    expect(await readdir(dist)).not.toContain('sitemap.xml');
    expect(await readFile(path.join(dist, 'robots.txt'), 'utf8')).toContain(
      'Sitemap: https://campaigns.example/sitemap.xml',
    );
    expect(await readFile(path.join(dist, '404.html'), 'utf8')).toBe(SHELL);
    expect(await readFile(path.join(dist, '_redirects'), 'utf8')).toContain('/campaign/:id /200.html 200');
  });

  it('names no sitemap without an origin', async () => {
    const written = await writeCrawlerFiles({ distDir: dist, origin: undefined, apiOrigin: undefined });
    expect(written).toEqual(['robots.txt', '_redirects', '404.html']);
    expect(await readdir(dist)).not.toContain('sitemap.xml');
  });
});
