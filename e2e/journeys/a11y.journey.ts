/** axe on every page, light and dark, in each engine (axe-core injected from the page's own origin). */
import { expect } from '@playwright/test';
import { CAMPAIGNS, DEMO } from '../fixtures';
import { journey } from './journey';

const PAGES: readonly [path: string, heading: string | RegExp][] = [
  ['/', /Campaigns/],
  [`/campaign/${CAMPAIGNS.maple.id}`, CAMPAIGNS.maple.title],
  ['/campaign/components/info', 'Component gallery'],
  ['/login', 'Sign in'],
  ['/no/such/page', '404'],
  ['/home', /^Welcome back/],
  ['/profile', 'Your profile'],
];

for (const scheme of ['light', 'dark'] as const) {
  journey(`axe finds nothing serious on any page, ${scheme}`, async (v) => {
    await v.visit('/');
    await v.evaluate(`localStorage.setItem('color-mode', ${JSON.stringify(scheme)})`);
    for (const [path, heading] of PAGES) {
      if (path === '/home') {
        // Signed in for the pages behind the guard, as the sign-in form would.
        const status = await v.evaluate<number>(
          `fetch('/api/session', { method: 'POST', headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ email: ${JSON.stringify(DEMO.email)}, password: ${JSON.stringify(DEMO.password)} }) }).then((r) => r.status)`,
        );
        expect(status).toBe(200);
      }
      await v.visit(path);
      await v.expectPage(heading);
      expect(await v.axe(), `serious or critical axe violations on ${path}, ${scheme}`).toEqual([]);
    }
  });
}
