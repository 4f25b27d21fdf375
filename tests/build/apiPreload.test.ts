// @vitest-environment node
import type { ResolvedConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import { apiPreload, sessionPreloadTag } from '../../build/apiPreload';

/** The tags the plugin adds to index.html for a build with this environment. */
function tagsFor(env: Record<string, string>) {
  const plugin = apiPreload();
  (plugin.configResolved as (config: ResolvedConfig) => void)({ env } as unknown as ResolvedConfig);
  return (plugin.transformIndexHtml as () => ReturnType<typeof sessionPreloadTag>[])();
}

describe('the session preload in index.html', () => {
  it('asks for the API base the client uses, with the credentials mode of its fetch', () => {
    expect(sessionPreloadTag('/api').attrs).toEqual({
      rel: 'preload',
      href: '/api/session',
      as: 'fetch',
      crossorigin: 'anonymous',
    });
    expect(tagsFor({}).map((tag) => tag.attrs.href)).toEqual(['/api/session']);
    expect(tagsFor({ VITE_API_BASE_URL: ' https://api.example/v1/ ' }).map((tag) => tag.attrs.href)).toEqual([
      'https://api.example/v1/session',
    ]);
  });
});
