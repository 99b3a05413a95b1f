import { expect, test } from '@playwright/test';
import { PanelsPage } from '../pages/panels';

// Chapter 6, "A node goes away" (issue 16): the sandbox's new actions, and the moments the
// chapter is about, read from the inspector at linked steps.
test.describe('a node goes away', () => {
  test('the shutdown, deletion and out-of-service actions have their buttons', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=node-goes-away&step=1&autoplay=0');
    for (const name of [
      'Shut down machine',
      'Power off machine',
      'Delete Node',
      'Taint out-of-service',
      'Remove out-of-service taint',
      'Create StatefulSet',
    ]) {
      await expect(app.action(name)).toHaveCount(1);
    }
    const untaint = app.action('Remove out-of-service taint');
    await expect(untaint).toHaveAttribute('aria-disabled', 'true');
    await expect(untaint).toHaveAccessibleDescription(
      'Not now: the Node node-1 has no node.kubernetes.io/out-of-service taint',
    );
    await expect(app.action('Create StatefulSet')).toHaveAttribute('aria-disabled', 'true');
    app.expectNoErrors();
  });

  test('a graceful shutdown: Ready False, Pods Failed but still listed', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=node-goes-away&step=3&autoplay=0');
    await app.expectReady('False', 'KubeletNotReady');
    await expect(app.conditionCells('Ready').nth(4)).toHaveText('node is shutting down');
    await app.tab('Pods').click();
    const onNode1 = app.openPanel.locator('table.pods tbody tr:not(.head)', { hasText: 'node-1' });
    await expect(onNode1).toHaveCount(2);
    // kubectl's STATUS: the container's own terminated reason (nginx exited 0) wins over
    // the Pod's reason `Terminated`.
    await expect(onNode1.first().locator('td').nth(0)).toHaveText('Completed');
    await expect(onNode1.first().locator('td').nth(1)).toHaveText('0/1');
    app.expectNoErrors();
  });

  test('db-0 stays Terminating on the dead node, its volume still attached there', async ({ page }) => {
    const app = new PanelsPage(page);
    await app.goto('./?chapter=node-goes-away&step=9&autoplay=0');
    await app.tab('Pods').click();
    const db = app.openPanel.getByRole('row', { name: /^db-0/ });
    await expect(db.locator('td').nth(0)).toHaveText('Terminating');
    await expect(db.locator('td').nth(2)).toHaveText('node-2');
    const attachments = app.openPanel.locator('table.attachments tbody tr:not(.head)');
    await expect(attachments).toHaveCount(1);
    await expect(attachments.first().locator('td').nth(1)).toHaveText('node-2');
    await expect(attachments.first().locator('td').nth(2)).toHaveText('true');
    app.expectNoErrors();
  });
});
