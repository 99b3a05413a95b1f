import { expect, test, type Locator, type Page } from '@playwright/test';
import * as path from 'node:path';
import { SCREENSHOT_DIR } from '../pages/app-page';
import { KubectlPage } from '../pages/kubectl';

// The reader's story (src/view/account.rs): once the reader's actions depart from a chapter's
// story, the narration says so and tells what they caused, read from the timeline at the
// playhead, with the chapter's own steps kept as the chapter's story.

/** The narration panel, named by its heading ("Your story" once the reader departed). */
function yourStory(page: Page): Locator {
  return page.getByRole('region', { name: 'Your story' });
}

/** What the panel says of the reader's story (not the chapter's steps listed below it). */
function account(page: Page): Locator {
  return yourStory(page).locator('.narration-body');
}

/** The muted list of the chapter's own steps. */
function chaptersStory(page: Page): Locator {
  return page.getByRole('navigation', { name: 'Steps of this chapter' });
}

async function expectTheChaptersStoryWithoutContradictions(page: Page): Promise<void> {
  const story = chaptersStory(page);
  await expect(story.getByRole('heading', { name: "The chapter's story" })).toBeVisible();
  await expect(story).not.toContainText('does not happen', { useInnerText: true });
}

test.describe("the reader's story", () => {
  test('node failure: the kubelet of node-2 instead of node-1, followed to Unknown and its taints', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=node-failure&t=90s&autoplay=0');
    await expect(page.getByRole('region', { name: 'Your story' })).toHaveCount(0);
    await app.machinePicker.selectOption({ label: 'node-2' });
    await app.action('Kill kubelet').click();
    const story = yourStory(page);
    await expect(story).toContainText("You changed the story at 1:30: node-2's kubelet stopped.");
    // What comes next, from the profile's grace period and the last renewal.
    await expect(story.locator('.account-next')).toContainText(
      /node-2's Lease is no longer renewed \(last at 1:2\d\); after the 50s grace period the node lifecycle controller will mark node-2 Unknown and taint it unreachable, at about 2:\d\d\./,
    );
    await expect(account(page)).not.toContainText('node-1', { useInnerText: true });
    await expectTheChaptersStoryWithoutContradictions(page);
    // Later on the same timeline: what happened, with its moments.
    await app.goto('./?chapter=node-failure&actions=kill-kubelet:node-2@1m30s&t=2m40s&autoplay=0');
    await expect(story).toContainText(/2:\d\d The node lifecycle controller marked node-2 Unknown \(NodeStatusUnknown\)\./);
    await expect(story).toContainText('node-2 got the taint node.kubernetes.io/unreachable:NoExecute.');
    await expectTheChaptersStoryWithoutContradictions(page);
    app.expectNoErrors();
  });

  test('registration: containerd stopped makes the node NotReady', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=registration&actions=stop-runtime@2m&t=3m&autoplay=0');
    const story = yourStory(page);
    await expect(story).toContainText('You changed the story at 2:00: containerd stopped on node-1.');
    await expect(story).toContainText(/node-1 is NotReady/);
    await expectTheChaptersStoryWithoutContradictions(page);
    app.expectNoErrors();
  });

  test('kubelet restart: a kubelet started earlier than the story brings the node back', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=kubelet-restart&actions=kill-kubelet@1m,start-kubelet@2m30s&t=3m30s&autoplay=0');
    const story = yourStory(page);
    await expect(story).toContainText("You changed the story at 1:00: node-1's kubelet stopped.");
    await expect(story).toContainText("You: node-1's kubelet started");
    await expect(story).toContainText(/node-1 is Ready \(KubeletReady\)\./);
    app.expectNoErrors();
  });

  test('a zone goes dark: a whole zone cut, told concisely', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=zone-outage&nodes=30&actions=cut-zone:eu-west-1a@1m&t=4m&autoplay=0');
    const story = yourStory(page);
    await expect(story).toContainText('You changed the story at 1:00: zone eu-west-1a cut off from the API server.');
    await expect(story).toContainText('Zone eu-west-1a is now FullDisruption.');
    // What comes next, zone by zone: the Pods on the tainted Nodes go as their toleration runs out.
    await expect(story.locator('.account-next')).toContainText(
      /In eu-west-1a, Pods on NoExecute-tainted Nodes: \d+\. They are evicted as their tolerationSeconds run out, from about 6:5\d/,
    );
    app.expectNoErrors();
  });

  test('maintenance: a drain typed for node-2 is the story told', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=maintenance&t=70s&autoplay=0');
    await app.newTab('kubectl').click();
    await app.type('kubectl drain node-2 --ignore-daemonsets');
    const story = yourStory(page);
    await expect(story).toContainText(
      'You changed the story at 1:10: ran kubectl drain node-2 --ignore-daemonsets.',
    );
    await expect(story).toContainText('kubectl: node/node-2 cordoned');
    await expect(account(page)).not.toContainText('node-1', { useInnerText: true });
    await expectTheChaptersStoryWithoutContradictions(page);
    app.expectNoErrors();
  });

  test('maintenance: a drain a budget blocks gets 429, retried every 5 s', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(
      './?chapter=maintenance&actions=create-pdb%2Bmin-available=6@30s,drain%2Bignore-daemonsets:node-1@1m30s&t=3m&autoplay=0',
    );
    const story = yourStory(page);
    await expect(story).toContainText(
      "(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.",
    );
    await expect(story).toContainText(/\(\d+ times, the last at (2:5\d|3:00)\)/);
    await expect(story).toContainText(
      'kubectl retries the eviction every 5 s: the PodDisruptionBudget web allows 0 disruptions (6 Pods healthy, 6 needed)',
    );
    await expect(story).not.toContainText('gets 201', { useInnerText: true });
    app.expectNoErrors();
  });

  test('a node goes away: a machine powered off, followed to Unknown', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=node-goes-away&actions=power-off:node-3@1m&t=3m&autoplay=0');
    const story = yourStory(page);
    await expect(story).toContainText('You changed the story at 1:00: node-3 powered off.');
    await expect(story).toContainText(/The node lifecycle controller marked node-3 Unknown/);
    await expectTheChaptersStoryWithoutContradictions(page);
    app.expectNoErrors();
  });

  test('in Japanese too', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=node-failure&actions=kill-kubelet:node-2@1m30s&t=2m40s&autoplay=0&lang=ja&k8s=1.31');
    const story = page.getByRole('region', { name: 'あなたの筋書き' });
    await expect(story).toContainText('1:30 にあなたが筋書きを変えました: node-2 の kubelet が停止。');
    await expect(story).toContainText('ノードライフサイクルコントローラーが node-2 を Unknown にしました');
    await expect(page.getByRole('heading', { name: '章の筋書き' })).toBeVisible();
    await story.screenshot({ path: path.join(SCREENSHOT_DIR, 'story-1440-narration-ja.png') });
    app.expectNoErrors();
  });

  test('screenshots of the account', async ({ page }) => {
    const app = new KubectlPage(page);
    await page.setViewportSize({ width: 1440, height: 900 });
    await app.goto('./?chapter=node-failure&actions=kill-kubelet:node-2@1m30s&t=2m40s&autoplay=0');
    await expect(yourStory(page)).toContainText('marked node-2 Unknown');
    await app.screenshot('story-1440');
    await yourStory(page).screenshot({ path: path.join(SCREENSHOT_DIR, 'story-1440-narration.png') });
    await app.goto(
      './?chapter=maintenance&actions=create-pdb%2Bmin-available=6@30s,drain%2Bignore-daemonsets:node-1@1m30s&t=3m&autoplay=0',
    );
    await expect(yourStory(page)).toContainText('retries the eviction every 5 s');
    await app.screenshot('story-1440-maintenance');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(yourStory(page)).toBeVisible();
    await app.screenshot('story-390-maintenance');
    await yourStory(page).screenshot({ path: path.join(SCREENSHOT_DIR, 'story-390-narration.png') });
    app.expectNoErrors();
  });
});
