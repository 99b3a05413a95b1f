import { expect, test } from '@playwright/test';
import { AppPage } from '../pages/app-page';
import { CHAPTERS } from '../pages/chapters';

// Each chapter, played fast from its first step, reaches its last step. The narration says
// which step the playhead is in; waiting for it is waiting for a state, not for time. (The live
// region announces the step too, but a later Node status change or eviction may replace it.)
test.describe('chapters', () => {
  for (const chapter of CHAPTERS) {
    test(`${chapter.id} plays through to its last step`, async ({ page }) => {
      test.setTimeout(120_000);
      const app = new AppPage(page);
      await app.goto(`?chapter=${chapter.id}&step=1&speed=60`);
      await expect(app.pauseButton).toBeVisible();
      await expect(app.chapterLink(chapter.n)).toHaveAttribute('aria-current', 'page');
      await expect(page.locator('section.narration .step-of')).toHaveText(`Step ${chapter.steps} of ${chapter.steps}`, {
        timeout: 100_000,
      });
      app.expectNoErrors();
    });
  }

  test('the chapter navigation switches chapters', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?chapter=registration&autoplay=0');
    await app.chapterLink(2).click();
    await expect(app.chapterLink(2)).toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveURL(/chapter=node-failure/);
    await expect(page).toHaveTitle(/Node failure/);
    app.expectNoErrors();
  });
});
