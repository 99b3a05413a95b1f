import { expect, test } from '@playwright/test';
import { PanelsPage } from '../pages/panels';

const RFC1123Z = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d \+0000$/;

test.describe('inspector', () => {
  test('tabs follow the WAI-ARIA pattern and move with the arrow keys', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&step=6&autoplay=0');
    const node = app.tab('Node');
    await expect(node).toHaveAttribute('aria-selected', 'true');
    await expect(app.openPanel).toHaveCount(1);
    await expect(app.openPanel).toHaveAttribute('aria-labelledby', 'inspector-tab-node');

    await node.focus();
    await page.keyboard.press('ArrowRight');
    await expect(app.tab('Lease')).toBeFocused();
    await expect(app.tab('Lease')).toHaveAttribute('aria-selected', 'true');
    await expect(node).toHaveAttribute('aria-selected', 'false');
    await expect(node).toHaveAttribute('tabindex', '-1');
    await expect(app.openPanel).toContainText('HolderIdentity');

    await page.keyboard.press('End');
    await expect(app.tab('Events')).toBeFocused();
    await expect(app.openPanel).toContainText('NodeReady');
    await page.keyboard.press('ArrowRight');
    await expect(app.tab('Node')).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(app.tab('Events')).toBeFocused();
    await page.keyboard.press('Home');
    await expect(app.tab('Node')).toBeFocused();
    await expect(app.conditions).toBeVisible();
    app.expectNoErrors();
  });

  test('before registration there is no Node object', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&autoplay=0');
    await expect(app.openPanel).toContainText('node-1: no Node object yet');
    await app.tab('Lease').click();
    await expect(app.openPanel).toContainText('node-1: no Lease yet');
    app.expectNoErrors();
  });

  test('the Node tab reads like kubectl', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&step=6&autoplay=0');
    await expect(app.inspector.locator('table.get-nodes').getByRole('columnheader')).toHaveText(['NAME', 'STATUS', 'ROLES', 'AGE', 'VERSION']);
    await expect(app.nodeStatus).toHaveText('Ready');
    await expect(app.conditions.getByRole('columnheader')).toHaveText([
      'Type',
      'Status',
      'LastHeartbeatTime',
      'LastTransitionTime',
      'Reason',
      'Message',
    ]);
    await expect(app.conditions.getByRole('rowheader')).toHaveText(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
    const ready = app.conditionCells('Ready');
    await expect(ready.nth(0)).toHaveText('True');
    await expect(ready.nth(1)).toHaveText(RFC1123Z);
    await expect(ready.nth(2)).toHaveText(RFC1123Z);
    await expect(ready.nth(3)).toHaveText('KubeletReady');
    await expect(ready.nth(4)).toHaveText('kubelet is posting ready status');
    app.expectNoErrors();
  });

  test('cells that just changed are marked', async ({ page }) => {
    const app = new PanelsPage(page);
    // Slow playback from the step shown 2 s before the controller's Unknown write: the change
    // lands, and stays marked for 2 s of simulated time (4 s of real time at 0.5x).
    await app.goto('./?chapter=node-failure&autoplay=0&speed=0.5');
    await app.stepLink(3).click();
    await expect(app.stepOf).toHaveText('Step 3 of 6');
    await app.expectReady('Unknown', 'NodeStatusUnknown');
    await expect(app.conditionCells('Ready').nth(0)).toHaveAttribute('data-changed', 'true');
    await expect(app.conditionCells('Ready').nth(4)).toHaveAttribute('data-changed', 'true');
    // The heartbeat column is left alone by the controller.
    await expect(app.conditionCells('Ready').nth(1)).not.toHaveAttribute('data-changed', 'true');
    await expect(app.nodeStatus).toHaveText('NotReady');
    app.expectNoErrors();
  });

  test('Lease, Pods and Events tabs', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=registration&step=6&autoplay=0');
    await app.tab('Lease').click();
    await expect(app.openPanel).toContainText('node-1');
    await expect(app.openPanel).toContainText(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z/);
    await expect(app.openPanel).toContainText(/About \d+s left of the 50s grace period/);

    await app.tab('Pods').click();
    const pods = app.openPanel.locator('tbody tr:not(.head)');
    await expect(pods).toHaveCount(2);
    await expect(pods.first().locator('td').nth(0)).toHaveText('Running');
    await expect(pods.first().locator('td').nth(1)).toHaveText('1/1');
    await expect(pods.first().locator('td').nth(2)).toHaveText('node-1');

    await app.tab('Events').click();
    await expect(app.openPanel.getByRole('columnheader')).toHaveText(['Last seen', 'Type', 'Reason', 'Object', 'Message']);
    await expect(app.openPanel.locator('tbody tr', { hasText: 'NodeReady' })).toContainText('node/node-1');
    app.expectNoErrors();
  });
});
