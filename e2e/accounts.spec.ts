/**
 * Accounts people make: sign-up with and without JavaScript, a password change that ends the other browser's
 * session, deleting the account, axe on the new forms in light and dark, and the header on a phone.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, expectHydrated, expectPage, header, mainHeading, test } from './fixtures';

const PASSWORD = 'a walk along the canal at dusk';
const NEW_PASSWORD = 'the heron stood quite still';
let made = 0;
function freshEmail(): string {
  made += 1;
  return `e2e-${Date.now().toString(36)}-${made}@example.com`;
}

async function signUp(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await expectHydrated(page);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(mainHeading(page)).toHaveText('Create an account');
  await expect(page).toHaveURL('/login?mode=signup');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Display name').fill('New Neighbour');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expectPage(page, { url: '/home', heading: 'Welcome back, New Neighbour' });
}

async function expectNoViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
}

test('sign up, and be signed in on /home', async ({ page }) => {
  await signUp(page, freshEmail());
  await expect(header(page).getByRole('link', { name: 'Profile' })).toBeVisible();
});

test('a refused sign-up says why by the field, keeps what was typed but the password, and focuses it', async ({
  page,
}) => {
  await page.goto('/login?mode=signup');
  await expectHydrated(page);
  await page.getByLabel('Email').fill('DEMO@example.com');
  await page.getByLabel('Display name').fill('Someone');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByLabel('Password')).toBeFocused();
  await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
  await page.getByLabel('Password').fill('password1');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('This password is in a list of common or breached passwords')).toBeVisible();
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('An account with this email already exists. Sign in instead.')).toBeVisible();
  await expect(page.getByLabel('Email')).toBeFocused();
  await expect(page.getByLabel('Email')).toHaveValue('DEMO@example.com');
  await expect(page.getByLabel('Display name')).toHaveValue('Someone');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the sign-up form on /login posts, signs in and lands on /home; a taken address comes back with the message', async ({
    page,
  }) => {
    const email = freshEmail();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page).toHaveURL('/login?mode=signup');
    await expect(mainHeading(page)).toHaveText('Create an account');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Display name').fill('No Scripts');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL('/home');
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'sid')).toMatchObject({ httpOnly: true });

    await page.context().clearCookies();
    await page.goto('/login?mode=signup');
    await page.getByLabel('Email').fill(email.toUpperCase());
    await page.getByLabel('Display name').fill('Again');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'An account with this email already exists. Sign in instead.',
    );
    await expect(mainHeading(page)).toHaveText('Create an account');
    await expect(page.getByLabel('Email')).toHaveValue(email.toUpperCase());
    await expect(page.getByLabel('Display name')).toHaveValue('Again');
    await expect(page.getByLabel('Password')).toHaveValue('');
  });
});

test('a password change ends the other browser’s session and keeps this one', async ({ page, browser }) => {
  const email = freshEmail();
  await signUp(page, email);
  const other = await browser.newContext();
  const elsewhere = await other.newPage();
  try {
    const signedIn = await elsewhere.request.post('/api/session', {
      data: { email, password: PASSWORD },
      headers: { origin: new URL(page.url()).origin },
    });
    expect(signedIn.status()).toBe(200);
    await elsewhere.goto('/profile');
    await expect(mainHeading(elsewhere)).toHaveText('Your profile');

    await page.goto('/profile');
    await expectHydrated(page);
    await page.getByLabel('Current password').fill('not my password');
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('That is not your current password.')).toBeVisible();
    await expect(page.getByLabel('Current password')).toBeFocused();
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    const status = page.getByText('Your password was changed. Your other sessions were signed out.');
    await expect(status).toBeFocused();

    await elsewhere.reload();
    await expect(mainHeading(elsewhere)).toHaveText('Sign in');
    await page.reload();
    await expect(mainHeading(page)).toHaveText('Your profile');
  } finally {
    await other.close();
  }
});

test('deleting the account needs the password, signs out and frees the address', async ({ page }) => {
  const email = freshEmail();
  await signUp(page, email);
  await page.goto('/profile');
  await expectHydrated(page);
  await page.getByLabel('Your password').fill('wrong');
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByText('That is not your current password.')).toBeVisible();
  await page.getByLabel('Your password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL('/');
  const session = await page.request.get('/api/session');
  expect(await session.json()).toEqual({ user: null });
  const signIn = await page.request.post('/api/session', {
    data: { email, password: PASSWORD },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(signIn.status()).toBe(401);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`axe finds nothing on the sign-up mode and the profile forms (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('/login?mode=signup');
    await expectHydrated(page);
    await expect(mainHeading(page)).toHaveText('Create an account');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText('Enter your email address.')).toBeVisible();
    await expectNoViolations(page);
    await page.goto('/login');
    await expectHydrated(page);
    await expectNoViolations(page);
    await page.request.post('/api/session', {
      data: { email: 'demo@example.com', password: 'demo-password' },
      headers: { origin: new URL(page.url()).origin },
    });
    await page.goto('/profile');
    await expectHydrated(page);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Enter your current password.')).toBeVisible();
    await expectNoViolations(page);
  });
}

test('on a 390 px phone the header keeps its links, the colour-mode control and sign-out on one row', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.request.post('/api/session', {
    data: { email: 'demo@example.com', password: 'demo-password' },
    headers: { origin: new URL(String(test.info().project.use.baseURL)).origin },
  });
  await page.goto('/home');
  await expectHydrated(page);
  const row = header(page);
  const items = [
    row.getByRole('link', { name: 'campaign-web' }),
    row.getByRole('link', { name: 'Home' }),
    row.getByRole('link', { name: 'Profile' }),
    row.getByRole('button', { name: 'Sign out' }),
  ];
  const boxes = await Promise.all(items.map(async (item) => (await item.boundingBox()) ?? undefined));
  const tops = boxes.map((box) => Math.round((box?.y ?? -100) + (box?.height ?? 0) / 2));
  const first = tops[0] ?? 0;
  for (const top of tops) expect(Math.abs(top - first)).toBeLessThan(12);
  // The name on one line too (it wrapped to two at 390 px).
  expect(boxes[0]?.height ?? 100).toBeLessThan(32);
  const headerBox = await row.boundingBox();
  expect(headerBox?.height ?? 1000).toBeLessThan(80);
  await page.screenshot({ path: test.info().outputPath('header-390.png') });
});
