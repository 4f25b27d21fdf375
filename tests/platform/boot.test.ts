import { describe, expect, it, vi } from 'vitest';
import { mountOrReport } from '../../src/platform/boot';

describe('start-up', () => {
  function page() {
    document.body.innerHTML =
      '<div id="root"><p id="boot-status">Loading…</p></div><div id="boot-failure" hidden>campaign-web could not start</div>';
    return document;
  }

  it('logs a mount failure with the spec words, shows the static notice, and rethrows', async () => {
    const doc = page();
    const error = new Error('no root');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(mountOrReport(() => Promise.reject(error), doc)).rejects.toBe(error);
    expect(log).toHaveBeenCalledWith('Error while mounting app:', error);
    expect(doc.getElementById('boot-failure')?.hidden).toBe(false);
    expect(doc.getElementById('boot-status')?.hidden).toBe(true);
  });

  it('leaves the notice hidden when mounting works', async () => {
    const doc = page();
    await mountOrReport(() => {}, doc);
    expect(doc.getElementById('boot-failure')?.hidden).toBe(true);
  });

  it('rethrows the mount failure itself where the page has no notice to show (a test page, a custom host)', async () => {
    document.body.innerHTML = '<div id="root"></div>';
    const error = new Error('no root');
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await expect(mountOrReport(() => Promise.reject(error), document)).rejects.toBe(error);
  });

  it('a start-up cut short by leaving the page is no failure: WebKit rejects the imports still loading', async () => {
    const doc = page();
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    log.mockClear();
    let fail: (error: Error) => void = () => {};
    const mounting = mountOrReport(() => new Promise<void>((_, reject) => (fail = reject)), doc);
    doc.defaultView?.dispatchEvent(new Event('pagehide'));
    fail(new TypeError('Importing a module script failed.'));
    await expect(mounting).resolves.toBeUndefined();
    expect(doc.getElementById('boot-failure')?.hidden).toBe(true);
    expect(log).not.toHaveBeenCalled();
  });
});
