import { expect, test } from '@playwright/test';

test('the landing page shows featured campaigns', async ({ page }) => {
  await page.goto('/');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Campaigns that move neighbourhoods' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Maple Street Community Garden' })).toBeVisible();
  await expect(page).toHaveTitle('Campaigns that move neighbourhoods | campaign-web');
});
