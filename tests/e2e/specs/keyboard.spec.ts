import { expect, test } from '@playwright/test';
import { TimelinePage } from '../pages/timeline';

test.describe('keyboard shortcuts', () => {
  test('Space plays and pauses, but clicks a focused button instead', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=node-failure&t=0&autoplay=0');
    await tl.main.focus();
    await page.keyboard.press('Space');
    await expect(tl.pauseButton).toBeVisible();
    await page.keyboard.press('Space');
    await expect(tl.playButton).toBeVisible();

    // Space on "Next step" is that button's click: to step 1, still paused.
    const step1 = await tl.markerClock(1);
    await tl.nextStep.focus();
    await page.keyboard.press('Space');
    await tl.expectClock(step1);
    await expect(tl.playButton).toBeVisible();

    // Space on the slider plays (the slider does not use Space).
    await tl.slider.focus();
    await page.keyboard.press('Space');
    await expect(tl.pauseButton).toBeVisible();
    tl.expectNoErrors();
  });

  test('← and → go to the previous and next step, except on the slider', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=node-failure&t=0&autoplay=0');
    const [step1, step2] = [await tl.markerClock(1), await tl.markerClock(2)];
    await tl.main.focus();
    await page.keyboard.press('ArrowRight');
    await tl.expectClock(step1);
    await page.keyboard.press('ArrowRight');
    await tl.expectClock(step2);
    await page.keyboard.press('ArrowLeft');
    await tl.expectClock(step1);
    await page.keyboard.press('ArrowLeft');
    await tl.expectClock('T+00:00');

    // On the slider, the same keys move by a second.
    await tl.slider.focus();
    await page.keyboard.press('ArrowRight');
    await tl.expectClock('T+00:01');
    tl.expectNoErrors();
  });

  test('- + [ ] change the speed; shortcuts leave the speed select alone', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=node-failure&t=0&autoplay=0');
    const speed = tl.speed.locator('option:checked');
    await expect(speed).toHaveText('1×');
    await tl.main.focus();
    await page.keyboard.press('+');
    await expect(speed).toHaveText('2×');
    await page.keyboard.press(']');
    await expect(speed).toHaveText('5×');
    await page.keyboard.press('-');
    await expect(speed).toHaveText('2×');
    await page.keyboard.press('[');
    await page.keyboard.press('[');
    await expect(speed).toHaveText('0.5×');
    // Chords belong to the browser (Ctrl+- zooms out).
    await page.keyboard.press('Control+-');
    await expect(speed).toHaveText('0.5×');

    // In the select, the arrows choose a speed; they do not step through the chapter.
    await tl.speed.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowLeft');
    await tl.expectClock('T+00:00');
    await expect(tl.playButton).toBeVisible();
    tl.expectNoErrors();
  });

  test('? opens the shortcut sheet; it keeps the focus, closes with Esc and gives the focus back', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=node-failure&t=0&autoplay=0');
    await expect(tl.sheet).toBeHidden();

    await tl.nextStep.focus();
    await page.keyboard.press('?');
    await expect(tl.sheet).toBeVisible();
    await expect(tl.sheetClose).toBeFocused();
    for (const key of ['Space', 'Escape']) {
      await expect(tl.sheet.locator('kbd', { hasText: key === 'Space' ? 'Space' : 'Esc' })).toBeVisible();
    }
    await expect(tl.sheet.getByText('Play or pause')).toBeVisible();

    // Focus stays in the dialog, whichever way one tabs.
    await page.keyboard.press('Tab');
    await expect(tl.sheetClose).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(tl.sheetClose).toBeFocused();
    // Shortcuts other than ? and Esc do nothing while it is open.
    await page.keyboard.press('ArrowRight');
    await tl.expectClock('T+00:00');

    await page.keyboard.press('Escape');
    await expect(tl.sheet).toBeHidden();
    await expect(tl.nextStep).toBeFocused();

    // ? toggles it; the bar's button and the Close button work too.
    await page.keyboard.press('?');
    await expect(tl.sheet).toBeVisible();
    await page.keyboard.press('?');
    await expect(tl.sheet).toBeHidden();
    await expect(tl.nextStep).toBeFocused();

    await tl.shortcutsButton.click();
    await expect(tl.sheet).toBeVisible();
    await expect(tl.sheetClose).toBeFocused();
    await tl.screenshot('timeline-sheet');
    await tl.sheetClose.press('Space');
    await expect(tl.sheet).toBeHidden();
    await expect(tl.shortcutsButton).toBeFocused();
    await expect(tl.playButton).toBeVisible();
    tl.expectNoErrors();
  });
});
