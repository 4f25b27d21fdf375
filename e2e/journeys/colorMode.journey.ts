/** Colour mode: each option, stored, no other mode painted first on a reload, and a page that forces dark. */
import { expect } from '@playwright/test';
import { LANDING_TITLE } from '../fixtures';
import { journey } from './journey';
import type { Visitor } from './visitor';

const CONTROL = { role: 'radiogroup', name: 'Color mode', within: { role: 'banner' } } as const;

async function choose(v: Visitor, label: 'Light' | 'Dark' | 'System'): Promise<void> {
  const radio = { role: 'radio', name: label, within: CONTROL } as const;
  await v.click(radio);
  await v.until(`${label} is checked`, async () => (await v.find(radio))?.attributes.checked, 'true');
}

const mode = (v: Visitor) =>
  v.evaluate<string | null>(`document.documentElement.getAttribute('data-color-mode')`);
const stored = (v: Visitor) => v.evaluate<string | null>(`localStorage.getItem('color-mode')`);

journey(
  'each colour mode is applied and stored, a reload paints no other first, and the gallery forces dark',
  async (v) => {
    await v.visit('/');
    await v.expectPage(LANDING_TITLE, '/');
    const system = (await v.evaluate<boolean>(`matchMedia('(prefers-color-scheme: dark)').matches`))
      ? 'dark'
      : 'light';
    for (const [label, expected] of [
      ['Dark', 'dark'],
      ['Light', 'light'],
      ['System', system],
    ] as const) {
      await choose(v, label);
      await v.until(`${label} applied`, () => mode(v), expected);
      expect(await stored(v)).toBe(label.toLowerCase());
      await v.reload();
      await v.expectPage(LANDING_TITLE, '/');
      expect(await mode(v)).toBe(expected);
      const seen = await v.evaluate<string[]>('window.__journeysModes');
      expect(
        seen.filter((value) => value !== expected),
        `modes painted on the reload in ${label}`,
      ).toEqual([]);
    }

    await choose(v, 'Light');
    await v.visit('/campaign/components/info');
    await v.expectPage('Component gallery');
    expect(await mode(v)).toBe('dark');
    expect((await v.find({ role: 'radio', name: 'Dark', within: CONTROL }))?.attributes.disabled).toBe('');
    expect(await v.evaluate<string>('document.body.textContent')).toContain('This page is always shown dark');
    expect(await stored(v), 'the forced page leaves the preference alone').toBe('light');
  },
);
