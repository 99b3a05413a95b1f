import { expect, test } from '@playwright/test';
import { StagePage } from '../pages/stage';

test.describe('stage', () => {
  test('names the machine, its kubelet and the API server', async ({ page }) => {
    const stage = new StagePage(page);
    await stage.goto('?chapter=registration&t=1m5s&autoplay=0');

    await expect(stage.region).toHaveAccessibleDescription(/control plane/);
    await expect(stage.machine('node-1')).toBeVisible();
    await expect(stage.kubelet('node-1', 'running')).toBeVisible();
    await expect(stage.network('node-1', false)).toBeVisible();
    await expect(stage.apiserver).toBeVisible();
    await expect(stage.group('node lifecycle controller')).toBeVisible();
    await expect(stage.group('namespace kube-node-lease')).toBeVisible();
    await expect(stage.group(/^Lease node-1: holderIdentity node-1, renewTime /)).toBeVisible();
    await expect(stage.group(/^Node node-1: Ready;/)).toBeVisible();
    await expect(stage.caption).toHaveText(/^Last request, from kubelet\/node-1: PUT \/apis\/coordination\.k8s\.io\/v1\/namespaces\/kube-node-lease\/leases\/node-1 → 200$/);
    await stage.screenshot('stage-wide');
    stage.app.expectNoErrors();
  });

  test('a stopped kubelet leaves its container running', async ({ page }) => {
    const stage = new StagePage(page);
    await stage.goto('?chapter=node-failure&t=2m30s&autoplay=0&theme=dark');

    await expect(stage.kubelet('node-1', 'stopped')).toBeVisible();
    await expect(stage.kubelet('node-2', 'running')).toBeVisible();
    const containers = stage.containers('node-1');
    await expect(containers).toHaveAccessibleName(/^node-1: 1 container running: web-[a-z0-9]+-[a-z0-9]+\/nginx$/);
    await expect(containers.getByText(/^web-.*\/nginx$/)).toBeVisible();
    await stage.screenshot('stage-kubelet-stopped');
    stage.app.expectNoErrors();
  });

  test('a cut network is drawn cut', async ({ page }) => {
    const stage = new StagePage(page);
    await stage.goto('?chapter=registration&actions=cut-network@1m&t=1m30s&autoplay=0');

    await expect(stage.network('node-1', true)).toBeVisible();
    await expect(stage.svg.locator('.link.cut').getByText('cut', { exact: true })).toBeVisible();
    // The kubelet's last Lease renewal is stuck at the cut, waiting for its timeout.
    await expect(stage.caption).toHaveText(/PUT \S+\/leases\/node-1 → no answer yet$/);
    await expect(
      stage.region.locator('[data-packet]').filter({ hasText: 'no answer yet' }).filter({ hasText: 'leases' }),
    ).toBeVisible();
    await stage.screenshot('stage-network-cut');
    stage.app.expectNoErrors();
  });

  test('requests travel with their response code while playing', async ({ page }) => {
    const stage = new StagePage(page);
    await stage.goto('?chapter=registration&step=2');

    // The registration burst comes right away; the next heartbeats come 10 s later.
    await expect(stage.answeredPackets.first()).toBeVisible({ timeout: 15_000 });
    await stage.screenshot('stage-packets');
    await expect(stage.caption).toHaveText(/→ (200|201|404)$/);
    stage.app.expectNoErrors();
  });

  test('with reduced motion, packets wait at their destination with their answer', async ({ page }) => {
    // At 10.8 s the kubelet's first Lease lookup (sent at 10.76 s) has just left; the 10.51 s
    // status PATCH is still on its way.
    const query = '?chapter=registration&t=10.8s&autoplay=0';
    const stage = new StagePage(page);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await stage.goto(query);
    await expect(stage.packets.filter({ hasText: /^GET …\/leases\/node-1 404$/ })).toBeVisible();
    await expect(stage.packets.filter({ hasText: /^PATCH …\/nodes\/node-1\/status 200$/ })).toBeVisible();

    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await stage.goto(query);
    await expect(stage.packets.filter({ hasText: /^GET …\/leases\/node-1$/ })).toBeVisible();
    await expect(stage.answeredPackets).toHaveCount(0);
    stage.app.expectNoErrors();
  });

  test('narration terms highlight what they name', async ({ page }) => {
    const stage = new StagePage(page);
    await stage.goto('?chapter=registration&t=0s&autoplay=0');

    await page.getByRole('button', { name: 'kubelet', exact: true }).first().focus();
    await expect(stage.svg).toHaveAttribute('data-highlight', 'kubelet');
    const frame = stage.kubelet('node-1', 'running').locator('rect.frame');
    await expect(frame).toHaveCSS('stroke-width', '3px');
    await stage.screenshot('stage-highlight');
  });

  test('fits a phone without horizontal scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const stage = new StagePage(page);
    await stage.goto('?chapter=node-failure&t=3m&autoplay=0');

    await expect(stage.svg).toHaveClass(/\bnarrow\b/);
    await expect(stage.kubelet('node-1', 'stopped')).toBeVisible();
    await expect(stage.group(/^Node node-1: NotReady;/)).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await stage.region.scrollIntoViewIfNeeded();
    await stage.screenshot('stage-narrow');
    stage.app.expectNoErrors();
  });
});
