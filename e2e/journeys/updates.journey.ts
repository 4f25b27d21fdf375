/** Update detection: a new `latest.json` is noticed, and the next link click loads a document. */
import { expect } from '@playwright/test';
import { CAMPAIGNS, LANDING_TITLE } from '../fixtures';
import { journey } from './journey';

journey('a new build is noticed and the next link click loads a document of it', async (v) => {
  // The hourly check falls due in seconds (the probe shortens timers of a minute or more a thousandfold).
  v.proxy.setProbe({ timers: [{ atLeast: 60_000, factor: 0.001 }] });
  const latest = v.proxy.answer(/^\/_app\/builds\/latest\.json/, {
    json: { id: 'a-newer-build', timestamp: Date.now() },
  });
  await v.visit('/');
  await v.expectPage(LANDING_TITLE, '/');
  await v.until('the update check went out', async () => latest.hits() > 0, true);
  await v.get({ role: 'listitem', name: /A new version is available/ });
  const loads = v.proxy.documentLoads();
  await v.click({ role: 'link', name: CAMPAIGNS.maple.title });
  await v.expectPage(CAMPAIGNS.maple.title, `/campaign/${CAMPAIGNS.maple.id}`);
  expect(v.proxy.documentLoads(), 'the click loaded the new build').toBe(loads + 1);
});
