import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { AppPage, SCREENSHOT_DIR } from '../pages/app-page';

/**
 * The screenshots a human looks at before a UI change lands (and the README's): every chapter
 * at a telling step, at each place the page is used (1920×1080, 1440×900, 1280×800, 390×844, an
 * embed in a 700×640 frame, alone and in the example host page), once in Japanese and once in
 * the dark theme, viewport only, in tests/e2e/screenshots/.
 */
const moments = [
  { chapter: 'registration', step: 5, name: 'registration-ready' },
  { chapter: 'node-failure', step: 4, name: 'node-failure-tainted' },
  { chapter: 'kubelet-restart', step: 2, name: 'kubelet-restart-adopted' },
  { chapter: 'zone-outage', step: 4, name: 'zone-outage-dark' },
  { chapter: 'maintenance', step: 4, name: 'maintenance-drain' },
  { chapter: 'node-goes-away', step: 3, name: 'goes-away-graceful' },
  { chapter: 'node-goes-away', step: 9, name: 'goes-away-out-of-service' },
  { chapter: 'node-goes-away', step: 10, name: 'goes-away-db-back' },
];

const places = [
  { width: 1920, height: 1080, query: '' },
  { width: 1440, height: 900, query: '' },
  { width: 1280, height: 800, query: '' },
  { width: 390, height: 844, query: '' },
  { width: 700, height: 640, query: '&embed=1' },
] as const;

for (const { width, height, query } of places) {
  test(`screenshots at ${width}×${height}${query}`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height });
    const app = new AppPage(page);
    for (const m of moments) {
      await app.goto(`./?chapter=${m.chapter}&step=${m.step}&autoplay=0${query}`);
      await expect(page.locator('section.narration .step-of')).toHaveText(new RegExp(`^Step ${m.step} of`));
      const suffix = query ? '-embed' : '';
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${m.name}-${width}x${height}${suffix}.png`) });
    }
    app.expectNoErrors();
  });
}

test('screenshots in Japanese, in the dark theme, and of the example host page', async ({ page }) => {
  const app = new AppPage(page);
  const shots = [
    { width: 1440, height: 900, url: './?chapter=maintenance&step=4&autoplay=0&lang=ja', name: 'maintenance-ja-1440x900' },
    { width: 390, height: 844, url: './?chapter=maintenance&step=4&autoplay=0&lang=ja', name: 'maintenance-ja-390x844' },
    { width: 1280, height: 800, url: './?chapter=node-failure&step=4&autoplay=0&theme=dark', name: 'node-failure-dark-1280x800' },
    { width: 390, height: 844, url: './?chapter=zone-outage&step=4&autoplay=0&theme=dark', name: 'zone-outage-dark-390x844' },
  ];
  for (const s of shots) {
    await page.setViewportSize({ width: s.width, height: s.height });
    await app.goto(s.url);
    await expect(page.locator('section.narration .step-of')).toHaveText(/^(Step|ステップ) 4/);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${s.name}.png`) });
  }
  // The example host page in a wide window (two embeds side by side) and a docs column's (one).
  for (const [width, height] of [
    [1440, 900],
    [700, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('./public/embed-example.html');
    await expect(page.locator('[data-status]').first()).toHaveText(/^Step 1 of 6/);
    await expect(page.frameLocator('iframe').first().getByRole('button', { name: 'Play', exact: true })).toBeVisible();
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `embed-example-${width}x${height}.png`) });
  }
  app.expectNoErrors();
});
