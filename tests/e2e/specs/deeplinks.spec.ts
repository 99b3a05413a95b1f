import { expect, test } from '@playwright/test';
import { AppPage, parseClock } from '../pages/app-page';

test.describe('deep links', () => {
  test('?chapter=registration&step=4 opens step 4 and plays', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?chapter=registration&step=4');
    await expect(app.status).toContainText('Step 4 of 6');
    await expect(app.pauseButton).toBeVisible();
    app.expectNoErrors();
  });

  test('#step=4 is the same link in the fragment', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('#step=4');
    await expect(app.status).toContainText('Step 4 of 6');
    await expect(app.pauseButton).toBeVisible();
    app.expectNoErrors();
  });

  test('&autoplay=0 opens paused at the step', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?chapter=node-failure&step=3&autoplay=0');
    await expect(app.status).toContainText('Step 3 of 6');
    await expect(app.playButton).toBeVisible();
    const before = parseClock(await app.clock.innerText());
    expect(before).toBeGreaterThan(160);
    await expect(app.chapterLink(2)).toHaveAttribute('aria-current', 'page');
    app.expectNoErrors();
  });

  test('the #scheme= form of the original card keeps working', async ({ page }) => {
    for (const [scheme, n] of [
      ['cluster-node-registration', 1],
      ['cluster-node-failure', 2],
      ['cluster-node-restart', 3],
    ] as const) {
      const app = new AppPage(page);
      // A fresh document for each link (the same document would reload on the hash change).
      await page.goto('about:blank');
      await app.goto(`#scheme=${scheme}&step=2&autoplay=0`);
      await expect(app.chapterLink(n)).toHaveAttribute('aria-current', 'page');
      await expect(app.status).toContainText('Step 2 of');
      app.expectNoErrors();
    }
  });

  test('a sandbox link reproduces the timeline at the same moment', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?chapter=registration&actions=kill-kubelet@5m,start-kubelet@8m&t=6m30s');
    await expect(app.clock).toHaveText('T+06:30');
    await expect(app.playButton).toBeVisible();
    await expect(app.notices).toBeHidden();
    // The page keeps the link: the same actions and playhead are in the address bar.
    await expect(page).toHaveURL(/actions=kill-kubelet@5m0s,start-kubelet@8m0s/);
    await expect(page).toHaveURL(/t=6m30s/);
    app.expectNoErrors();
  });

  test('bad values fall back and say so', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?chapter=nowhere&step=99&t=later&actions=explode@1m');
    await expect(app.notices).toBeVisible();
    await expect(app.notices).toContainText('There is no chapter "nowhere"');
    await expect(app.notices).toContainText('"explode@1m" is not an action');
    await expect(app.notices).toContainText('"later" is not a duration');
    await expect(app.chapterLink(1)).toHaveAttribute('aria-current', 'page');
    await expect(app.status).toContainText('Step 6 of 6');
    // Notices can be dismissed.
    const dismiss = app.notices.getByRole('button', { name: 'Dismiss' }).first();
    const count = await app.notices.getByRole('listitem').count();
    await dismiss.click();
    await expect(app.notices.getByRole('listitem')).toHaveCount(count - 1);
    app.expectNoErrors();
  });

  test('hostile values render as text, never as markup', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?chapter=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E');
    await expect(app.notices).toContainText('<img src=x onerror=alert(1)>');
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    app.expectNoErrors();
  });
});
