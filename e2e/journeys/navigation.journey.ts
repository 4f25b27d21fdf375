/** Landing page and campaign: prerendered HTML, then the app; client-side links, focus, Back and Forward. */
import { expect } from '@playwright/test';
import { CAMPAIGNS, LANDING_TITLE } from '../fixtures';
import { journey } from './journey';

journey(
  'a link navigates client-side, focuses the heading, and Back and Forward restore page and position',
  async (v) => {
    await v.engine.setViewport(390, 700);
    await v.visit('/');
    await v.expectPage(LANDING_TITLE, '/');
    const loads = v.proxy.documentLoads();
    // A card further down the page: the click scrolls it into view first, so Back has a position to restore.
    await v.click({ role: 'link', name: CAMPAIGNS.youthClub.title });
    await v.expectPage(CAMPAIGNS.youthClub.title, `/campaign/${CAMPAIGNS.youthClub.id}`);
    await v.until('the new page heading has focus', async () => (await v.focused())?.tag, 'h1');
    await v.until('a link starts the new page at the top', () => v.evaluate<number>('scrollY'), 0);
    expect(v.proxy.documentLoads(), 'the link loaded no document').toBe(loads);
    await v.back();
    await v.expectPage(LANDING_TITLE, '/');
    const restored = await v.evaluate<boolean>('scrollY > 0');
    expect(restored, 'Back restores the position the visitor left').toBe(true);
    await v.forward();
    await v.expectPage(CAMPAIGNS.youthClub.title, `/campaign/${CAMPAIGNS.youthClub.id}`);
    expect(v.proxy.documentLoads(), 'Back and Forward loaded no document').toBe(loads);
  },
);

journey('a campaign opened directly shows its prerendered page, then the app takes it over', async (v) => {
  const html = await (await fetch(`${v.proxy.origin}/campaign/${CAMPAIGNS.maple.id}`)).text();
  expect(html, 'the server sends the page itself, not an empty shell').toContain(CAMPAIGNS.maple.title);
  await v.visit(`/campaign/${CAMPAIGNS.maple.id}`);
  await v.expectPage(CAMPAIGNS.maple.title);
  await v.click({ role: 'link', name: /campaign-web/, within: { role: 'banner' } });
  await v.expectPage(LANDING_TITLE, '/');
});
