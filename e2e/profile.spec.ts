/**
 * The profile form. Only this file changes a display name, and only Sam's (the other specs assert the demo
 * user's name), so its tests run one after another and put "Sam Rivera" back however they end.
 */
import {
  expect,
  expectPage,
  mainHeading,
  mainNav,
  SAM,
  sameOrigin,
  signInViaApi,
  signInWithForm,
  test,
} from './fixtures';

test.describe.configure({ mode: 'serial' });

test.afterEach(async ({ page }) => {
  // Whatever happened, Sam's name goes back to the seeded one.
  await signInViaApi(page, SAM);
  const restored = await page.request.patch('/api/profile', {
    data: { displayName: SAM.displayName },
    headers: sameOrigin(),
  });
  expect(restored.status()).toBe(200);
});

const LENGTH_ERROR = 'Display name must be between 1 and 60 characters.';

test('a saved display name persists across reloads and shows on /home', async ({ page }) => {
  const newName = `Sam R. ${Date.now() % 100_000}`;
  await page.goto('/profile');
  await expectPage(page, { url: '/login?redirect=%2Fprofile', heading: 'Sign in' });
  await signInWithForm(page, SAM);
  await expectPage(page, { url: '/profile', heading: 'Your profile' });
  const field = page.getByLabel('Display name');
  const status = page.getByRole('main').getByRole('status');
  await expect(field).toHaveValue(SAM.displayName);
  await expect(status).toHaveText('');

  await field.fill(newName);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(status).toHaveText('Your profile was saved.');

  await page.reload();
  await expect(mainHeading(page)).toHaveText('Your profile');
  await expect(field).toHaveValue(newName);
  await mainNav(page).getByRole('link', { name: 'Home' }).click();
  await expectPage(page, { url: '/home', heading: `Welcome back, ${newName}` });

  // Put the original name back through the form, and check that it stuck too.
  await mainNav(page).getByRole('link', { name: 'Profile' }).click();
  await expectPage(page, { url: '/profile', heading: 'Your profile' });
  await expect(field).toHaveValue(newName);
  await field.fill(SAM.displayName);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(status).toHaveText('Your profile was saved.');
  await page.reload();
  await expect(mainHeading(page)).toHaveText('Your profile');
  await expect(field).toHaveValue(SAM.displayName);
});

test('invalid names are refused before saving; server refusals are shown; Sign out leaves the page', async ({
  page,
}) => {
  await signInViaApi(page, SAM);
  await page.goto('/profile');
  await expect(mainHeading(page)).toHaveText('Your profile');
  const field = page.getByLabel('Display name');
  const save = page.getByRole('button', { name: 'Save changes' });
  const status = page.getByRole('main').getByRole('status');
  const writes: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/api/profile') && request.method() === 'PATCH')
      writes.push(request.postData() ?? '');
  });

  for (const [label, value] of [
    ['empty', ''],
    ['only spaces', '   '],
    ['61 characters', 'S'.repeat(61)],
  ] as const) {
    await test.step(label, async () => {
      await field.fill(value);
      await save.click();
      await expect(field).toHaveAccessibleDescription(new RegExp(`^${LENGTH_ERROR.replaceAll('.', '\\.')}`));
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(status).toHaveText('');
    });
  }
  expect(writes, 'invalid names are never sent').toEqual([]);

  // A refusal from the server is shown on the field, and nothing claims success.
  await page.route('**/api/profile', (route) =>
    route.request().method() === 'PATCH'
      ? route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ message: 'Display name must not contain control characters.' }),
        })
      : route.continue(),
  );
  await field.fill('Sam Rivera II');
  await save.click();
  await expect(field).toHaveAccessibleDescription(/^Display name must not contain control characters\./);
  await expect(status).toHaveText('');
  await page.unroute('**/api/profile');

  await page.reload();
  await expect(field).toHaveValue(SAM.displayName);

  // The page's own Sign out button ends the session and the guards send the user to sign in.
  await page.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
  await expectPage(page, { url: '/login?redirect=%2Fprofile', heading: 'Sign in' });
});
