import { expect, test, type Locator } from '@playwright/test';
import * as path from 'node:path';
import { parseClock, SCREENSHOT_DIR } from '../pages/app-page';
import { TimelinePage } from '../pages/timeline';

test.describe('timeline bar', () => {
  test('Play toggles to Pause and the clock advances; pausing stops it', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=registration&autoplay=0');
    await tl.expectClock('T+00:00');
    await expect(tl.clock).toHaveAccessibleName('Simulated time');

    await tl.playButton.click();
    await expect(tl.pauseButton).toBeVisible();
    await expect(tl.playButton).toHaveCount(0);
    await tl.waitForClockAtLeast(2, 15_000);

    await tl.pauseButton.click();
    await expect(tl.playButton).toBeVisible();
    const paused = await tl.clock.innerText();
    const valueNow = await tl.slider.getAttribute('aria-valuenow');
    // Half a second of frames later, nothing has moved.
    await tl.frames(30);
    await expect(tl.clock).toHaveText(paused);
    await expect(tl.slider).toHaveAttribute('aria-valuenow', valueNow ?? '');
    tl.expectNoErrors();
  });

  test('the chosen speed sets how fast the clock runs', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=registration&autoplay=0');
    await expect(tl.speed).toHaveValue('3');
    await expect(tl.speed.locator('option:checked')).toHaveText('1×');
    // Without fast-forwarding, only the chosen speed moves the clock.
    await tl.skipQuiet.uncheck();
    await expect(tl.skipQuiet).not.toBeChecked();
    await tl.speed.selectOption({ label: '60×' });
    await expect(tl.speed.locator('option:checked')).toHaveText('60×');

    const start = Date.now();
    await tl.playButton.click();
    // Two simulated minutes: at 1× that would take two real minutes.
    await tl.waitForClockAtLeast(120, 15_000);
    expect(Date.now() - start).toBeLessThan(15_000);
    await tl.pauseButton.click();

    await tl.speed.selectOption({ label: '0.1×' });
    const slow = await tl.clockSeconds();
    await tl.playButton.click();
    await tl.frames(60);
    // A second of frames at 0.1× moves the clock by about a tenth of a second.
    expect(await tl.clockSeconds()).toBeLessThanOrEqual(slow + 1);
    tl.expectNoErrors();
  });

  test('next and previous step move the clock to the step moments', async ({ page }) => {
    const tl = new TimelinePage(page);
    // A chapter link lands on step 1's moment.
    await tl.goto('?chapter=node-failure&autoplay=0');
    await expect(tl.markers).toHaveCount(6);
    await tl.expectClock(await tl.markerClock(1));
    await expect(tl.marker(1)).toHaveAttribute('aria-current', 'step');
    // From the very start, "Next step" walks every step's moment.
    await tl.goto('?chapter=node-failure&t=0&autoplay=0');
    const moments = [];
    for (let n = 1; n <= 6; n++) {
      moments.push(await tl.markerClock(n));
    }
    expect(moments.map(parseClock)).toEqual([...moments.map(parseClock)].sort((a, b) => a - b));
    await tl.expectClock('T+00:00');
    await expect(tl.previousStep).toHaveAttribute('aria-disabled', 'true');

    for (let n = 1; n <= 6; n++) {
      await tl.nextStep.click();
      await tl.expectClock(moments[n - 1]);
      await expect(tl.marker(n)).toHaveAttribute('aria-current', 'step');
    }
    await expect(tl.nextStep).toHaveAttribute('aria-disabled', 'true');
    await expect(tl.playButton).toBeVisible();

    await tl.previousStep.click();
    await tl.expectClock(moments[4]);
    await tl.previousStep.click();
    await tl.expectClock(moments[3]);

    // A marker is a button that seeks to its step.
    await tl.marker(2).click();
    await tl.expectClock(moments[1]);
    await expect(tl.marker(2)).toHaveAttribute('title', new RegExp(`^Step 2: .+ \\(${moments[1].replace('+', '\\+')}\\)$`));
    tl.expectNoErrors();
  });

  test("steps the reader's actions prevented are shown as not reached and skipped", async ({ page }) => {
    const tl = new TimelinePage(page);
    // The kubelet comes back at 2m30s: no unreachable taints, no eviction, no replacement.
    await tl.goto('?chapter=node-failure&actions=start-kubelet:node-1@2m30s&t=0&autoplay=0');
    await expect(tl.markers).toHaveCount(6);
    for (const n of [4, 5, 6]) {
      await expect(tl.marker(n)).toHaveAttribute('aria-disabled', 'true');
      await expect(tl.marker(n)).toHaveAccessibleDescription(/does not happen in this timeline/);
      await expect(tl.marker(n)).not.toHaveAttribute('data-clock', /.*/);
    }
    // Activating an unreached marker does nothing.
    await tl.marker(4).focus();
    await page.keyboard.press('Enter');
    await tl.expectClock('T+00:00');
    const step3 = await tl.markerClock(3);
    await tl.marker(3).click();
    await tl.expectClock(step3);
    await expect(tl.nextStep).toHaveAttribute('aria-disabled', 'true');
    await tl.nextStep.focus();
    await page.keyboard.press('Enter');
    await tl.expectClock(step3);
    // Once the playhead is past the reader's action, those steps are the chapter's story as
    // told, not contradictions.
    await tl.goto('?chapter=node-failure&actions=start-kubelet:node-1@2m30s&t=3m&autoplay=0');
    for (const n of [4, 5, 6]) {
      await expect(tl.marker(n)).toHaveAttribute('aria-disabled', 'true');
      await expect(tl.marker(n)).toHaveAttribute('title', new RegExp(`^Step ${n} of the chapter's story: .+ \\(your actions changed this timeline\\)$`));
      await expect(tl.marker(n)).toHaveAccessibleDescription(/belongs to the chapter's story as told/);
    }
    await expect(page.getByRole('status').filter({ hasText: 'Your actions changed the story' })).toHaveCount(1);
    tl.expectNoErrors();
  });

  test('dragging the playhead seeks, and playing resumes after the drag', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=node-failure&autoplay=0');
    const end = await tl.endSeconds();
    expect(end).toBe(540);

    await tl.drag(0.1, 0.75);
    await expect.poll(() => tl.clockSeconds()).toBeGreaterThan(end * 0.75 - 10);
    expect(await tl.clockSeconds()).toBeLessThan(end * 0.75 + 10);
    await expect(tl.slider).toBeFocused();
    await expect(tl.playButton).toBeVisible();

    await tl.drag(0.75, 0.25);
    await expect.poll(() => tl.clockSeconds()).toBeLessThan(end * 0.25 + 10);
    expect(await tl.clockSeconds()).toBeGreaterThan(end * 0.25 - 10);

    // While playing: paused during the drag, playing again after it.
    await tl.playButton.click();
    await expect(tl.pauseButton).toBeVisible();
    await tl.drag(0.25, 0.5);
    await expect(tl.pauseButton).toBeVisible();
    await expect.poll(() => tl.clockSeconds()).toBeGreaterThan(end * 0.5 - 10);
    tl.expectNoErrors();
  });

  test('the slider moves by seconds and minutes with its keys', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=node-failure&autoplay=0');
    await expect(tl.slider).toHaveAttribute('aria-valuemin', '0');
    await expect(tl.slider).toHaveAttribute('aria-valuemax', '540');
    await expect(tl.slider).toHaveAccessibleDescription(/Drag or use the arrow keys/);
    await tl.slider.focus();

    const steps: [string, string][] = [
      ['End', 'T+09:00'],
      ['Home', 'T+00:00'],
      ['ArrowRight', 'T+00:01'],
      ['Shift+ArrowRight', 'T+00:11'],
      ['PageUp', 'T+01:11'],
      ['ArrowUp', 'T+01:12'],
      ['ArrowLeft', 'T+01:11'],
      ['Shift+ArrowLeft', 'T+01:01'],
      ['PageDown', 'T+00:01'],
      ['PageDown', 'T+00:00'],
    ];
    for (const [key, clock] of steps) {
      await page.keyboard.press(key);
      await tl.expectClock(clock);
    }
    await expect(tl.slider).toHaveAttribute('aria-valuenow', '0');
    // Arrows on the slider move time, not steps, and leave playback paused.
    await expect(tl.playButton).toBeVisible();
    tl.expectNoErrors();
  });

  test('a long quiet wait is fast-forwarded, visibly, with the true clock', async ({ page }) => {
    test.setTimeout(60_000);
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=node-failure&step=4&speed=10');
    await expect(tl.pauseButton).toBeVisible();
    await expect(tl.speed.locator('option:checked')).toHaveText('10×');
    await expect(tl.skipQuiet).toBeChecked();
    // Step 4: the unreachable taints, when the 300 s toleration starts; step 5: the eviction.
    const step4 = parseClock(await tl.markerClock(4));
    const step5 = parseClock(await tl.markerClock(5));
    expect(step5 - step4).toBeGreaterThan(290);

    await tl.waitForClockAtLeast(step4 + 5, 40_000);
    await expect(tl.fastForwarding).toBeVisible();
    await expect(tl.fastForwarding).toContainText('the clock shows true time');
    expect(await tl.clockSeconds()).toBeLessThan(step5 - 10);
    await tl.bar.screenshot({ path: path.join(SCREENSHOT_DIR, 'timeline-fast-forward.png') });
    // The rest of the 300 s passes in a few seconds (at 10× alone it would take half a minute).
    const start = Date.now();
    await tl.waitForClockAtLeast(step5, 20_000);
    expect(Date.now() - start).toBeLessThan(15_000);
    tl.expectNoErrors();
  });

  test('at the end, Play becomes Replay and starts again from step 1', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=registration&t=6m30s&autoplay=0');
    await expect(tl.replayButton).toBeVisible();
    await expect(tl.chapterEnd).toBeVisible();
    await tl.replayButton.click();
    await expect(tl.pauseButton).toBeVisible();
    await expect(tl.chapterEnd).toHaveCount(0);
    expect(await tl.clockSeconds()).toBeLessThan(30);
    tl.expectNoErrors();
  });

  test('every control is reachable by Tab, in order', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=node-failure&autoplay=0');
    await tl.playButton.focus();
    const order = [
      tl.previousStep,
      tl.nextStep,
      tl.speed,
      tl.skipQuiet,
      tl.marker(1),
      tl.marker(2),
      tl.marker(3),
      tl.marker(4),
      tl.marker(5),
      tl.marker(6),
      tl.slider,
      tl.shortcutsButton,
    ];
    for (const next of order) {
      await page.keyboard.press('Tab');
      await expect(next).toBeFocused();
    }
    tl.expectNoErrors();
  });

  for (const [name, width, height] of [
    ['wide', 1440, 900],
    ['narrow', 390, 844],
  ] as const) {
    test(`screenshot ${name} (${width}×${height})`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      const tl = new TimelinePage(page);
      await tl.goto('?chapter=node-failure&t=2m50s&autoplay=0');
      await expect(tl.marker(3)).toHaveAttribute('aria-current', 'step');
      await tl.slider.focus();
      // Nothing in the bar sticks out of the page.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await tl.bar.scrollIntoViewIfNeeded();
      // Every control is inside the page, and its target at least 24 px high (WCAG 2.5.8;
      // the checkbox's target is its label).
      const controls: [Locator, number][] = [
        [tl.playButton, 24],
        [tl.previousStep, 24],
        [tl.nextStep, 24],
        [tl.speed, 24],
        [tl.skipQuiet.locator('xpath=ancestor::label'), 24],
        [tl.shortcutsButton, 24],
        [tl.marker(1), 24],
        [tl.slider, 24],
      ];
      for (const [control, min] of controls) {
        const box = await control.boundingBox();
        expect(box).not.toBeNull();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(width);
        expect(box!.height).toBeGreaterThanOrEqual(min);
      }
      await tl.bar.screenshot({ path: path.join(SCREENSHOT_DIR, `timeline-${name}.png`) });
      await tl.screenshot(`timeline-${name}-page`);
      tl.expectNoErrors();
    });
  }

  test('screenshot dark theme', async ({ page }) => {
    const tl = new TimelinePage(page);
    await tl.goto('?chapter=kubelet-restart&t=4m30s&autoplay=0&theme=dark');
    await expect(tl.marker(2)).toHaveAttribute('aria-current', 'step');
    await tl.bar.screenshot({ path: path.join(SCREENSHOT_DIR, 'timeline-dark.png') });
    tl.expectNoErrors();
  });
});
