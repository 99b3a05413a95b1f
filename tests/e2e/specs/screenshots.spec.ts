import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { AppPage, SCREENSHOT_DIR } from '../pages/app-page';

/**
 * The screenshots a human looks at before a UI change lands (and the README's): every chapter
 * at a telling step, at 1920×1080 and 390×844, viewport only, in tests/e2e/screenshots/.
 */
const moments = [
  { chapter: 'registration', step: 5, name: 'registration-ready' },
  { chapter: 'node-failure', step: 4, name: 'node-failure-tainted' },
  { chapter: 'kubelet-restart', step: 2, name: 'kubelet-restart-adopted' },
  { chapter: 'node-goes-away', step: 3, name: 'goes-away-graceful' },
  { chapter: 'node-goes-away', step: 9, name: 'goes-away-out-of-service' },
  { chapter: 'node-goes-away', step: 10, name: 'goes-away-db-back' },
];

for (const [width, height] of [
  [1920, 1080],
  [390, 844],
] as const) {
  test(`screenshots at ${width}×${height}`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    const app = new AppPage(page);
    for (const m of moments) {
      await app.goto(`./?chapter=${m.chapter}&step=${m.step}&autoplay=0`);
      await expect(page.locator('section.narration .step-of')).toHaveText(new RegExp(`^Step ${m.step} of`));
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${m.name}-${width}x${height}.png`) });
    }
    app.expectNoErrors();
  });
}
