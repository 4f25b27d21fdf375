/** The two error views, and recovery from a part of the app that cannot be loaded. */
import { expect } from '@playwright/test';
import { CAMPAIGNS, LANDING_TITLE } from '../fixtures';
import { journey } from './journey';

/** The campaign page's chunk, also as a retry imports it (`?retry=1`). */
const CAMPAIGN_CHUNK = /^\/assets\/campaign-[^/?]+\.js(\?.*)?$/;
const LATEST = /^\/_app\/builds\/latest\.json/;

journey('an unknown address shows the 404 view; "Go back home" leaves it', async (v) => {
  await v.visit('/no/such/page');
  await v.expectPage('404', '/no/such/page');
  await v.get({ role: 'main', name: /Page not found: \/no\/such\/page/ }).catch(async () => {
    const text = await v.evaluate<string>("document.querySelector('main').textContent");
    expect(text).toContain('Page not found: /no/such/page');
  });
  await v.click({ role: 'link', name: 'Go back home' });
  await v.expectPage(LANDING_TITLE, '/');
});

journey(
  'a missing chunk of an outdated build reloads the page once, then shows the 500 view',
  async (v) => {
    v.proxy.answer(LATEST, { json: { id: 'a-newer-build', timestamp: Date.now() } });
    await v.visit('/');
    await v.expectPage(LANDING_TITLE, '/');
    const chunk = v.proxy.answer(CAMPAIGN_CHUNK, 'fail');
    const loads = v.proxy.documentLoads();
    await v.click({ role: 'link', name: CAMPAIGNS.maple.title });
    await v.expectPage('500');
    await v.get({ role: 'button', name: 'Reload' });
    expect(await v.evaluate<string>("document.querySelector('main').textContent")).toContain(
      'A part of the app could not be loaded.',
    );
    expect(await v.path()).toBe(`/campaign/${CAMPAIGNS.maple.id}`);
    expect(v.proxy.documentLoads(), 'one reload, no loop').toBe(loads + 1);
    expect(chunk.hits()).toBeGreaterThanOrEqual(2);
  },
  // The engine reports the failed import its own way; the app shows the view either way.
  { allowPageErrors: true },
);
