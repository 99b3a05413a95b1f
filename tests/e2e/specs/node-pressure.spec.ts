import { expect, test } from '@playwright/test';
import { KubectlPage } from '../pages/kubectl';

// "Running out of memory" (stories/node-pressure.yaml, `?story=node-pressure`): node-pressure
// eviction by the kubelet, read where the reader reads it, at the story's own steps. Expected
// texts are what `nodeline kubectl --story stories/node-pressure.yaml --at T -- ARGS` prints,
// which tests/it/kubectl_parity.rs holds to the real kubectl.
const STORY = './?story=node-pressure';

test.describe('running out of memory', () => {
  test("MemoryPressure, the controller's taint and the evicted Pod, at the story's step 6", async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(`${STORY}&step=6&autoplay=0`);
    await expect(app.stepTitle).toHaveText('MemoryPressure True, then the taint');
    // The Node tab shows node-1's memory: the threshold, and each container's usage beside its
    // request (the leaking high-priority Pod above it).
    await expect(app.inspector.getByRole('heading', { name: 'Memory', exact: true })).toBeVisible();
    await expect(app.inspector.getByRole('row', { name: /^Hard eviction threshold/ })).toContainText('100Mi');
    await expect(app.inspector.getByRole('row', { name: /^default\/priority-d7qfs / })).toContainText('above its request');
    await expect(app.inspector.getByRole('row', { name: /^default\/web-74fb665767-sx2s9 / })).toContainText('within its request');
    await app.newTab('kubectl').click();
    await app.type('kubectl describe node node-1');
    await expect(app.output).toContainText('Taints:             node.kubernetes.io/memory-pressure:NoSchedule');
    await expect(app.output).toContainText(
      /MemoryPressure\s+True\s+.+KubeletHasInsufficientMemory\s+kubelet has insufficient memory available/,
    );
    await app.type('kubectl describe pod web-74fb665767-7slr6');
    await expect(app.output).toContainText('Status:           Failed');
    await expect(app.output).toContainText('Reason:           Evicted');
    await expect(app.output).toContainText(
      'Message:          The node was low on resource: memory. Threshold quantity: 100Mi, available: 48Mi. ' +
        'Container nginx was using 7900644Ki, request is 64Mi, has larger consumption of memory.',
    );
    app.expectNoErrors();
  });

  test("the sandbox leaks memory in the Pod picked, stops the leak, and adds the story's Pods", async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(`${STORY}&step=1&autoplay=0`);
    const picker = page.getByRole('combobox', { name: 'Pod', exact: true });
    await expect(picker.getByRole('option')).toHaveCount(8);
    await picker.selectOption({ label: 'web-74fb665767-2r2n4' });
    await expect(app.action('Stop the memory leak')).toHaveAccessibleDescription(
      'Not now: the Pod default/web-74fb665767-2r2n4 does not leak memory',
    );
    await app.action('Leak memory in Pod').click();
    await expect(app.forkNotice).toContainText(/leak-memory:web-74fb665767-2r2n4@50s/);
    await expect(app.action('Leak memory in Pod')).toHaveAttribute('aria-disabled', 'true');
    await app.action('Stop the memory leak').click();
    await expect(app.forkNotice).toContainText(/stop-leak:web-74fb665767-2r2n4@50s/);
    // The story's other Pods, from buttons: a high-priority Pod and a BestEffort Pod on node-2.
    await app.machinePicker.selectOption({ label: 'node-2' });
    await app.action('Create high-priority Pod').click();
    await expect(app.forkNotice).toContainText(/create-priority-pod:node-2@50s/);
    await app.action('Create BestEffort Pod').click();
    await expect(app.forkNotice).toContainText(/create-besteffort-pod:node-2@50s/);
    app.expectNoErrors();
  });

  test('the embed tells the story in Japanese, from a step', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(`${STORY}&step=4&autoplay=0&embed=1&lang=ja`);
    await expect(page.locator('section.narration .step-of')).toHaveText('ステップ 4 / 11');
    await expect(app.narration).toContainText('EvictionThresholdMet');
    await expect(page.getByRole('region', { name: 'ステージ', exact: true })).toBeVisible();
    app.expectNoErrors();
  });
});
