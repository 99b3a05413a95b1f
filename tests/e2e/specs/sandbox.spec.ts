import { expect, test } from '@playwright/test';
import * as path from 'node:path';
import { SCREENSHOT_DIR } from '../pages/app-page';
import { PanelsPage } from '../pages/panels';

test.describe('sandbox', () => {
  test('killing the kubelet: NotReady after the grace period, Ready again after a start', async ({ page }) => {
    test.setTimeout(90_000);
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&step=6&autoplay=0&speed=10');
    await expect(app.nodeStatus).toHaveText('Ready');
    await app.expectReady('True', 'KubeletReady');

    await app.action('Kill kubelet').click();
    await expect(app.action('Kill kubelet')).toHaveAttribute('aria-disabled', 'true');
    await expect(app.action('Start kubelet')).not.toHaveAttribute('aria-disabled', 'true');
    await expect(app.forkNotice).toContainText(/Your actions: kill-kubelet@1m30s/);

    await app.playButton.click();
    // Grace period (50 s) + one monitor period (5 s) + up to one renew interval (10 s) of
    // simulated time at 10× is under 7 s of real time; allow for slow machines.
    await expect(app.nodeStatus).toHaveText('NotReady', { timeout: 30_000 });
    await app.expectReady('Unknown', 'NodeStatusUnknown');
    await expect(app.conditionCells('Ready').nth(4)).toHaveText('Kubelet stopped posting node status.');

    await app.action('Start kubelet').click();
    await app.expectReady('True', 'KubeletReady', 30_000);
    await expect(app.nodeStatus).toHaveText('Ready');
    await expect(app.forkNotice).toContainText(/kill-kubelet@1m30s,start-kubelet@/);
    app.expectNoErrors();
  });

  test('unavailable actions stay focusable and say why', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&step=6&autoplay=0');
    const restore = app.action('Restore kubelet network');
    await expect(restore).toHaveAttribute('aria-disabled', 'true');
    await expect(restore).toHaveAccessibleDescription('Not now: the network of node-1 is not cut');
    await restore.focus();
    await expect(restore).toBeFocused();
    // Playwright treats aria-disabled as disabled; a reader can still press it.
    await page.keyboard.press('Enter');
    await expect(app.notices).toContainText('Not now: the network of node-1 is not cut');
    await expect(app.forkNotice).toHaveCount(0);

    // Every action has its button, with exactly these names.
    for (const name of [
      'Kill kubelet',
      'Start kubelet',
      'Stop container runtime',
      'Start container runtime',
      'Cut kubelet network',
      'Restore kubelet network',
      'Create Pod',
      'Create Pod tolerating not-ready',
      'Add machine',
      'Add machine with duplicate name',
      'Label node-role',
    ]) {
      await expect(app.action(name)).toHaveCount(1);
    }
    app.expectNoErrors();
  });

  test('actions aim at the chosen machine, and the story can be restored', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=node-failure&step=1&autoplay=0');
    await expect(app.machinePicker.locator('option')).toHaveText(['node-1', 'node-2']);
    await app.machinePicker.selectOption({ label: 'node-2' });
    await app.action('Cut kubelet network').click();
    await expect(app.forkNotice).toContainText(/cut-network:node-2@1m30s/);
    await expect(app.action('Restore kubelet network')).not.toHaveAttribute('aria-disabled', 'true');

    await app.resetSandbox.click();
    await expect(app.forkNotice).toHaveCount(0);
    app.expectNoErrors();
  });

  test('screenshots', async ({ page }) => {
    const app = new PanelsPage(page);
    const shot = (name: string, el: import('@playwright/test').Locator) =>
      el.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
    // Just after the controller's Unknown write: the changed cells are still marked.
    await app.goto('./?chapter=registration&actions=kill-kubelet@1m30s&t=2m19s&autoplay=0');
    await expect(app.nodeStatus).toHaveText('NotReady');
    await app.screenshot('panels-1440');
    await shot('panels-1440-inspector', app.inspector);
    await shot('panels-1440-sandbox', app.sandbox);
    await app.tab('Lease').click();
    await shot('panels-1440-lease', app.inspector);
    await app.tab('Pods').click();
    await shot('panels-1440-pods', app.inspector);
    await app.tab('Events').click();
    await shot('panels-1440-events', app.inspector);
    await app.tab('Node').click();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(app.inspector).toBeVisible();
    await app.screenshot('panels-390');
    await shot('panels-390-narration', app.narration);
    await shot('panels-390-sandbox', app.sandbox);
    await shot('panels-390-inspector', app.inspector);
    await app.tab('Events').click();
    await shot('panels-390-events', app.inspector);
    app.expectNoErrors();
  });

  test('screenshot, dark theme', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&actions=kill-kubelet@1m30s&t=2m19s&autoplay=0&theme=dark');
    await expect(app.nodeStatus).toHaveText('NotReady');
    await app.screenshot('panels-1440-dark');
    app.expectNoErrors();
  });
});
