/** Sign-in rate limits as a person meets them: a clear message on the form, nothing else broken. */
import { DEMO, expect, expectPage, sameOrigin, signInWithForm, test } from './fixtures';

// An address no other spec signs in with: its failures count only here.
const TARGET = 'rate-limited@example.com';

test('after too many failed sign-ins for one email, the form says to wait, and other accounts still work', async ({
  page,
}) => {
  // The per-account budget (10 failures per 15 minutes by default), spent through the API.
  for (let i = 0; i < 10; i++) {
    const res = await page.request.post('/api/session', {
      data: { email: TARGET, password: `guess ${i}` },
      headers: sameOrigin(),
    });
    expect(res.status()).toBe(401);
  }

  await page.goto('/login');
  await signInWithForm(page, { email: TARGET, password: 'one more guess' });
  await expect(page.getByRole('alert')).toHaveText(
    'Too many sign-in attempts. Please wait 15 minutes and try again.',
  );
  await expectPage(page, { url: '/login', heading: 'Sign in' });
  await expect(page.getByLabel('Email')).toHaveValue(TARGET);

  // The limit is per account: the demo user signs in as usual from the same browser.
  await page.getByLabel('Email').fill(DEMO.email);
  await page.getByLabel('Password').fill(DEMO.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectPage(page, { url: '/home', heading: `Welcome back, ${DEMO.displayName}` });
});
