/**
 * The guards, signing in and out, and the display name saved, with the app and without JavaScript. The demo
 * account's name is saved unchanged: other specs read it, and journeys of three engines run at once.
 */
import { expect } from '@playwright/test';
import { DEMO, LANDING_TITLE } from '../fixtures';
import { journey } from './journey';
import type { Visitor } from './visitor';

const WELCOME = `Welcome back, ${DEMO.displayName}`;
const SAVED = 'Your profile was saved.';

async function signIn(v: Visitor): Promise<void> {
  await v.fill({ role: 'textbox', name: 'Email' }, DEMO.email);
  await v.fill({ role: 'textbox', name: 'Password' }, DEMO.password);
  await v.click({ role: 'button', name: 'Sign in', within: { role: 'main' } });
}

const mainText = (v: Visitor) => v.evaluate<string>("document.querySelector('main').textContent");

journey(
  'each guard: signed out to sign in and back, signed in away from sign-in; the name saved; signing out',
  async (v) => {
    await v.visit('/home');
    await v.expectPage('Sign in', '/login?redirect=%2Fhome');
    expect(await mainText(v)).toContain('You will go back to /home afterwards.');
    await signIn(v);
    await v.expectPage(WELCOME, '/home');
    await v.until('the new page heading has focus', async () => (await v.focused())?.tag, 'h1');

    // Signed in, the sign-in page sends the visitor on.
    await v.visit('/login');
    await v.expectPage(WELCOME, '/home');

    await v.click({ role: 'link', name: 'Profile', within: { role: 'navigation', name: 'Main' } });
    await v.expectPage('Your profile', '/profile');
    await v.fill({ role: 'textbox', name: 'Display name' }, DEMO.displayName);
    await v.click({ role: 'button', name: 'Save changes' });
    await v.until(
      'the save is confirmed',
      async () => (await v.find({ role: 'status', within: { role: 'main' } }))?.text,
      SAVED,
    );
    await v.reload();
    await v.expectPage('Your profile', '/profile');
    await v.until(
      'the saved name',
      async () => (await v.find({ role: 'textbox', name: 'Display name' }))?.value,
      DEMO.displayName,
    );

    await v.click({ role: 'button', name: 'Sign out', within: { role: 'banner' } });
    await v.expectPage('Sign in', '/login?redirect=%2Fprofile');
    await v.gone({ role: 'button', name: 'Sign out' });
    await v.click({ role: 'link', name: /campaign-web/, within: { role: 'banner' } });
    await v.expectPage(LANDING_TITLE, '/');
  },
);

journey('without JavaScript: sign in, save the display name, sign out', async (v) => {
  v.proxy.setScripts(false);
  await v.visit('/login?redirect=/profile');
  await v.until('the server page', () => v.heading(), 'Sign in');
  await v.fill({ role: 'textbox', name: 'Email' }, DEMO.email);
  await v.fill({ role: 'textbox', name: 'Password' }, DEMO.password);
  await v.click({ role: 'button', name: 'Sign in', within: { role: 'main' } });
  await v.until('signed in, on the return-to page', () => v.path(), '/profile');
  await v.fill({ role: 'textbox', name: 'Display name' }, DEMO.displayName);
  const loads = v.proxy.documentLoads();
  await v.click({ role: 'button', name: 'Save changes' });
  // The form posts and the server answers with the profile page again: a new document.
  await v.until('the profile page came back', async () => v.proxy.documentLoads() > loads, true);
  await v.until(
    'saved, back on the profile',
    async () => (await v.find({ role: 'textbox', name: 'Display name' }))?.value,
    DEMO.displayName,
  );
  expect(await v.path()).toBe('/profile');
  await v.click({ role: 'button', name: 'Sign out' });
  await v.until('signed out, on sign-in', () => v.path(), '/login');
  expect(await v.evaluate<number>('document.scripts.length - 1'), 'no script of the app ran').toBe(0);
});
