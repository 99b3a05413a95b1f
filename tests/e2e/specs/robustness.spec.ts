import { expect, test } from '@playwright/test';
import { AppPage, parseClock } from '../pages/app-page';

test.describe('robustness', () => {
  test('a Rust panic shows an error panel with a reload button, not a blank page', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('./?chapter=node-failure&step=2&autoplay=0');
    // The release build's one deliberate panic (not reachable from links, messages or controls).
    await page.evaluate(() => {
      try {
        (window as unknown as { wasmBindings: { nodelineSelfTestPanic: () => void } }).wasmBindings.nodelineSelfTestPanic();
      } catch {
        // The panic aborts the call: WebAssembly traps with "unreachable".
      }
    });
    const panel = page.getByRole('alert');
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('heading', { name: 'Something went wrong' })).toBeVisible();
    const reload = panel.getByRole('button', { name: 'Reload' });
    await expect(reload).toBeFocused();
    await reload.click();
    // The reload starts the app again from the same link.
    await expect(page.getByRole('alert')).toHaveCount(0);
    await expect(app.playButton).toBeVisible();
    await expect(page.locator('section.narration .step-of')).toHaveText(/^Step \d of 6$/);
  });

  test('a hidden tab pauses playback, and it resumes when the tab is shown again', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('./?chapter=registration&autoplay=0&speed=10');
    await app.playButton.click();
    await expect(app.pauseButton).toBeVisible();
    await app.waitForClockAtLeast(5);

    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
        Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
        document.dispatchEvent(new Event('visibilitychange'));
      }, hidden);

    await setHidden(true);
    await expect(app.playButton).toBeVisible();
    const stopped = parseClock(await app.clock.innerText());
    // Several animation frames later the clock has not moved.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
    expect(parseClock(await app.clock.innerText())).toBe(stopped);

    await setHidden(false);
    await expect(app.pauseButton).toBeVisible();
    await app.waitForClockAtLeast(stopped + 2);

    // A pause the reader chose survives hiding and showing.
    await app.pauseButton.click();
    await setHidden(true);
    await setHidden(false);
    await expect(app.playButton).toBeVisible();
    app.expectNoErrors();
  });
});
