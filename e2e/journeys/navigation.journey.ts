/** Landing page and campaign: prerendered HTML, then the app; client-side links, focus, Back and Forward. */
import { expect } from '@playwright/test';
import { CAMPAIGNS, LANDING_TITLE } from '../fixtures';
import { journey } from './journey';

journey('a link navigates client-side, focuses the heading, and Back and Forward restore page and position', async (v) => {
  await v.visit('/');
  await v.expectPage(LANDING_TITLE, '/');
  const loads = v.proxy.documentLoads();
  await v.click({ role: 'link', name: CAMPAIGNS.maple.title });
  await v.expectPage(CAMPAIGNS.maple.title, `/campaign/${CAMPAIGNS.maple.id}`);
  await v.until('the new page heading has focus', async () => (await v.focused())?.tag, 'h1');
  expect(v.proxy.documentLoads(), 'the link loaded no document').toBe(loads);
  await v.back();
  await v.expectPage(LANDING_TITLE, '/');
  await v.forward();
  await v.expectPage(CAMPAIGNS.maple.title, `/campaign/${CAMPAIGNS.maple.id}`);
  expect(v.proxy.documentLoads(), 'Back and Forward loaded no document').toBe(loads);
});
