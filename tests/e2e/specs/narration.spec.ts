import { expect, test } from '@playwright/test';
import { PanelsPage } from '../pages/panels';

test.describe('narration', () => {
  test('shows step 1 before anything happens', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&autoplay=0');
    // Before step 1's moment (and at it) step 1 is shown.
    await expect(app.stepOf).toHaveText('Step 1 of 6');
    await expect(app.stepTitle).toHaveText('A machine with a kubelet, and no Node yet');
    await expect(app.narration.locator('code').first()).toHaveText('--register-node');
    await expect(app.stepList.getByRole('listitem')).toHaveCount(6);
    app.expectNoErrors();
  });

  test('follows the clock from step to step', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&autoplay=0&speed=2');
    await app.stepLink(2).click();
    await expect(app.stepTitle).toHaveText('The kubelet POSTs its Node');
    await expect(app.stepOf).toHaveText('Step 2 of 6');
    // Step 3 is 8 s into the timeline (4 s of real time at 2x): the narration follows the clock.
    await expect(app.stepTitle).toHaveText('Status PATCHes, labels, and what a kubelet may not do', { timeout: 20_000 });
    await expect(app.stepOf).toHaveText('Step 3 of 6');
    await expect(app.stepList.getByRole('link', { name: /^Play from step 3:/ })).toHaveAttribute('aria-current', 'step');
    app.expectNoErrors();
  });

  test('hovering or focusing a term highlights what it names', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&autoplay=0');
    const term = app.term('kubelet');
    await expect(term).toHaveAttribute('data-term', 'kubelet');
    // The stage marks what is highlighted on its drawing, while the term is hovered or focused.
    const stageSvg = page.getByRole('region', { name: 'Stage', exact: true }).locator('svg.stage-svg');

    await term.hover();
    await expect(stageSvg).toHaveAttribute('data-highlight', 'kubelet');
    await page.mouse.move(0, 0);
    await expect(stageSvg).not.toHaveAttribute('data-highlight');

    await term.focus();
    await expect(stageSvg).toHaveAttribute('data-highlight', 'kubelet');
    await term.blur();
    await expect(stageSvg).not.toHaveAttribute('data-highlight');
    // Another term names something else.
    await app.term('API server').hover();
    await expect(stageSvg).toHaveAttribute('data-highlight', 'apiserver');
    app.expectNoErrors();
  });

  test('"Play from this step" seeks to the step and plays', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&step=6&autoplay=0');
    await expect(app.stepOf).toHaveText('Step 6 of 6');
    await expect(app.playButton).toBeVisible();

    // A real link too: middle-click or copy works.
    const step2 = app.stepLink(2);
    await expect(step2).toHaveAttribute('href', /[?&]chapter=registration&step=2\b/);
    await step2.click();
    await expect(app.stepOf).toHaveText(/^Step [23] of 6$/);
    await expect(app.pauseButton).toBeVisible();

    await app.pauseButton.click();
    await expect(app.playFromThisStep).toHaveAttribute('href', /step=[23]\b/);
    const href = await app.playFromThisStep.getAttribute('href');
    const n = Number(/step=(\d+)/.exec(href ?? '')?.[1]);
    await app.playFromThisStep.click();
    await expect(app.pauseButton).toBeVisible();
    await expect(app.stepOf).toHaveText(new RegExp(`^Step (${n}|${n + 1}) of 6$`));
    app.expectNoErrors();
  });
});
