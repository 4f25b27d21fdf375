/**
 * Forms before the app has started and without JavaScript: the sign-in, sign-out and profile forms
 * post to the server's form routes (api/forms.ts), which share their code with the JSON API.
 */
import type { Page, Route } from '@playwright/test';
import { DEMO, expect, expectHydrated, mainHeading, SAM, test } from './fixtures';

async function sessionCookie(page: Page) {
  return (await page.context().cookies()).find((cookie) => cookie.name === 'sid');
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the prerendered sign-in form is at rest, and signing in lands on /home with the session cookie', async ({
    page,
  }) => {
    await page.goto('/login');
    const submit = page.getByRole('button', { name: 'Sign in' });
    await expect(submit).toBeEnabled();
    await expect(page.getByText('Signing in…')).toHaveCount(0);
    await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    await submit.click();
    await expect(page).toHaveURL('/home');
    expect(await sessionCookie(page)).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  test('?redirect=/profile lands on /profile', async ({ page }) => {
    await page.goto('/login?redirect=/profile');
    await page.getByLabel('Email').fill(SAM.email);
    await page.getByLabel('Password').fill(SAM.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL('/profile');
  });

  test('a hostile return-to stays on the origin', async ({ page, baseURL }) => {
    await page.goto(`/login?redirect=${encodeURIComponent('//evil.example/steal')}`);
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${baseURL}/home`);
  });

  test('a wrong password comes back with the message and the email, never the password; redirect survives', async ({
    page,
  }) => {
    await page.goto('/login?redirect=/profile');
    await page.getByLabel('Email').fill('Demo@Example.com');
    await page.getByLabel('Password').fill('not the password');
    const [response] = await Promise.all([
      page.waitForResponse((res) => res.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(response.status()).toBe(401);
    await expect(page).toHaveURL('/login?redirect=/profile');
    await expect(mainHeading(page)).toHaveText('Sign in');
    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password');
    await expect(page.getByLabel('Email')).toHaveValue('Demo@Example.com');
    await expect(page.getByLabel('Password')).toHaveValue('');
    expect(await sessionCookie(page)).toBeUndefined();

    // The round trip kept the return-to: the next try lands there.
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL('/profile');
  });

  test('markup in the email comes back as text', async ({ page }) => {
    await page.goto('/login');
    const hostile = '"><img src=x onerror=alert(1)>@example.com';
    await page.getByLabel('Email').fill(hostile);
    await page.getByLabel('Password').fill('wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password');
    await expect(page.getByLabel('Email')).toHaveValue(hostile);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
  });

  test('sign out, and save a display name', async ({ page }) => {
    await page.goto('/login?redirect=/profile');
    await page.getByLabel('Email').fill(SAM.email);
    await page.getByLabel('Password').fill(SAM.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL('/profile');

    const name = page.getByLabel('Display name');
    await expect(name).toHaveValue(SAM.displayName);
    await name.fill('Sam Without Scripts');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL('/profile');
    await expect(page.getByLabel('Display name')).toHaveValue('Sam Without Scripts');
    const saved = await page.request.get('/api/profile');
    expect((await saved.json()).profile.displayName).toBe('Sam Without Scripts');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL('/login');
    expect(await sessionCookie(page)).toBeUndefined();
    expect((await page.request.get('/api/session').then((res) => res.json())).user).toBeNull();
    // Put the name back for other specs.
    await page.goto('/login?redirect=/profile');
    await page.getByLabel('Email').fill(SAM.email);
    await page.getByLabel('Password').fill(SAM.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Display name').fill(SAM.displayName);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByLabel('Display name')).toHaveValue(SAM.displayName);
  });
});

test.describe('before the app has started', () => {
  /**
   * Holds the app's scripts back until `release()`: the page is the prerendered HTML until then. (Module
   * scripts hold DOMContentLoaded back too, so pages are opened with `waitUntil: 'commit'`.)
   */
  async function holdScripts(page: Page) {
    const held: Route[] = [];
    let released = false;
    await page.route('**/assets/*.js', async (route) => {
      if (released) return route.continue();
      held.push(route);
    });
    return {
      release: async () => {
        released = true;
        for (const route of held.splice(0)) await route.continue();
      },
    };
  }

  test('a sign-in typed and submitted before hydration lands signed in', async ({ page }) => {
    await holdScripts(page);
    await page.goto('/login?redirect=/profile', { waitUntil: 'commit' });
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    const [response] = await Promise.all([
      page.waitForResponse((res) => res.request().method() === 'POST'),
      page.getByRole('button', { name: 'Sign in' }).click(),
    ]);
    expect(response.status()).toBe(303);
    await expect(page).toHaveURL('/profile');
    expect(await sessionCookie(page)).toBeDefined();
  });

  test('the message of a sign-in posted before the app ran goes when the app submits the form again', async ({
    page,
  }) => {
    const scripts = await holdScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The server's answer, a page of its own, still without the app.
    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password');
    await scripts.release();
    await expectHydrated(page);
    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password');
    // Submitted again, now by the app, without a password: its own message, the server's gone.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Enter your password.')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test('text typed before hydration is still there after it', async ({ page }) => {
    const scripts = await holdScripts(page);
    await page.goto('/login', { waitUntil: 'commit' });
    await page.getByLabel('Email').pressSequentially('early@example.com');
    await page.getByLabel('Password').pressSequentially('typed early');
    await scripts.release();
    await expectHydrated(page);
    await expect(page.getByLabel('Email')).toHaveValue('early@example.com');
    await expect(page.getByLabel('Password')).toHaveValue('typed early');
    // React owns the values: what it submits is what is on screen.
    await page.getByLabel('Password').press('Enter');
    await expect(page.getByRole('alert')).toHaveText('Incorrect email or password');
    await expect(page.getByLabel('Email')).toHaveValue('early@example.com');
  });

  test('the gallery’s toast buttons are disabled until the app has started, then work', async ({ page }) => {
    const scripts = await holdScripts(page);
    await page.goto('/campaign/components/info', { waitUntil: 'commit' });
    const show = page.getByRole('button', { name: 'Show toast', exact: true });
    await expect(show).toBeDisabled();
    await expect(show).toHaveAttribute('aria-disabled', 'true');
    const box = await show.boundingBox();
    await scripts.release();
    await expectHydrated(page);
    await expect(show).toBeEnabled();
    await expect(show).not.toHaveAttribute('aria-disabled');
    expect(await show.boundingBox()).toEqual(box);
    await show.click();
    await expect(page.getByText('Changes saved', { exact: true })).toBeVisible();
  });
});
