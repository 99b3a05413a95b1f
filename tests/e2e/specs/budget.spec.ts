import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { SCREENSHOT_DIR } from '../pages/app-page';
import { PanelsPage } from '../pages/panels';

// Maintenance: the PodDisruptionBudget drawn on the stage, every Pod reachable, and the sandbox's
// budget settings (src/view/stage/store.rs, src/app/controls.rs).

test.describe('maintenance: the budget on the stage and in the sandbox', () => {
  test('the budget card follows each eviction', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=maintenance&t=100s&autoplay=0');
    const stage = page.getByRole('region', { name: 'Stage', exact: true });
    const card = stage.getByRole('group', { name: /^PodDisruptionBudget web: / });
    await expect(card).toHaveAccessibleName(
      'PodDisruptionBudget web: minAvailable: 5, currentHealthy: 6  desiredHealthy: 5, disruptionsAllowed: 1',
    );
    // Just after the drain's first eviction: none allowed.
    await app.goto('./?chapter=maintenance&t=120.5s&autoplay=0');
    await expect(card).toHaveAccessibleName(/disruptionsAllowed: 0$/);
    await card.screenshot({ path: path.join(SCREENSHOT_DIR, 'budget-card-1440.png') });
    app.expectNoErrors();
  });

  test('every Pod is reachable from the keyboard', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=maintenance&t=100s&autoplay=0');
    const more = page.getByRole('button', { name: /^Show all \d+ Pods$/ });
    await expect(more).toHaveAttribute('aria-expanded', 'false');
    const pods = page.locator('section.stage g.pods g.pod');
    const few = await pods.count();
    await more.focus();
    await page.keyboard.press('Enter');
    const fewer = page.getByRole('button', { name: 'Show fewer' });
    await expect(fewer).toHaveAttribute('aria-expanded', 'true');
    await expect(fewer).toBeFocused();
    await expect.poll(() => pods.count()).toBeGreaterThan(few);
    await page.keyboard.press(' ');
    await expect(more).toBeVisible();
    await expect(pods).toHaveCount(few);
    app.expectNoErrors();
  });

  test('the sandbox sets min available or max unavailable, refused as kubectl refuses it', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=maintenance&t=30s&autoplay=0');
    const value = app.sandbox.getByLabel('Number or percentage');
    const create = app.action('Create PodDisruptionBudget');
    await value.fill('150%');
    await create.click();
    await expect(value).toHaveAttribute('aria-invalid', 'true');
    await expect(value).toBeFocused();
    await expect(value).toHaveAccessibleDescription(
      'kubectl refuses it: error: failed to create poddisruptionbudgets: PodDisruptionBudget.policy "web" is invalid: spec.minAvailable: Invalid value: "150%": must not be greater than 100%',
    );
    await expect(page).not.toHaveURL(/actions=/);
    await value.locator('xpath=ancestor::div[@class="action-group"]').screenshot({
      path: path.join(SCREENSHOT_DIR, 'budget-refused-1440.png'),
    });
    await value.fill('abc');
    await expect(value).not.toHaveAttribute('aria-invalid', 'true');
    await create.click();
    await expect(value).toHaveAccessibleDescription('kubectl refuses it: error: invalid format specified for min-available');
    await app.sandbox.getByLabel('Budget').selectOption('--max-unavailable');
    await value.fill('50%');
    await app.sandbox.screenshot({ path: path.join(SCREENSHOT_DIR, 'budget-sandbox-1440.png') });
    await create.click();
    await expect(page).toHaveURL(/actions=create-pdb%2Bmax-unavailable%3D50%25@30s/);
    await expect(page.getByRole('group', { name: /^PodDisruptionBudget web: maxUnavailable: 50%, / })).toBeVisible();
    await page.setViewportSize({ width: 390, height: 844 });
    await app.screenshot('budget-390');
    await page
      .getByRole('group', { name: /^PodDisruptionBudget web: / })
      .screenshot({ path: path.join(SCREENSHOT_DIR, 'budget-card-390.png') });
    app.expectNoErrors();
  });
});
