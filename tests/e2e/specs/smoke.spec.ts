import { expect, test } from '@playwright/test';
import { AppPage } from '../pages/app-page';

test.describe('smoke', () => {
  test('the page loads and Play toggles to Pause', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();

    await expect(page).toHaveTitle(/nodeline/);
    await expect(app.heading).toHaveText('nodeline');
    await expect(app.playButton).toBeVisible();
    await app.screenshot('smoke-loaded');

    await app.playButton.click();
    await expect(app.pauseButton).toBeVisible();
    await expect(app.playButton).toHaveCount(0);

    await app.pauseButton.click();
    await expect(app.playButton).toBeVisible();

    app.expectNoErrors();
  });

  test('the site also works under the docs sub-path', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('/docs/k8s/nodeline/');
    await expect(app.playButton).toBeVisible();
    app.expectNoErrors();
  });
});
