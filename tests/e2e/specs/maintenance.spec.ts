import { expect, test } from '@playwright/test';
import { KubectlPage } from '../pages/kubectl';

// Chapter 4, "Maintenance". The expected lines are what
// `nodeline kubectl --chapter maintenance --at 1m40s -- drain node-1 ...` prints (see
// tests/golden/maintenance-kubectl.txt): kubectl commands typed in the panel become the reader's
// action at the playhead, and their output grows as time plays.
const BEFORE_DRAIN = './?chapter=maintenance&t=100s&autoplay=0&speed=10';

test.describe('maintenance: kubectl changes the cluster', () => {
  test('a typed drain evicts at once, meets the budget, retries and drains as time plays', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(BEFORE_DRAIN);
    await app.newTab('kubectl').click();
    await app.type('kubectl drain node-1 --ignore-daemonsets');
    // At the playhead: the cordon, the DaemonSet warning, both evictions, and the budget's 429.
    await expect(app.output).toContainText('node/node-1 already cordoned');
    await expect(app.output).toContainText(/evicting pod default\/web-\S+\nevicting pod default\/web-/);
    await expect(app.stderr).toContainText('Warning: ignoring DaemonSet-managed Pods: kube-system/node-agent-');
    await expect(app.stderr).toContainText(
      "(will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.",
    );
    await expect(app.output).not.toContainText('drained');
    // The action is the reader's: the address carries it.
    await expect(page).toHaveURL(/actions=drain%2Bignore-daemonsets:node-1@1m40s/);
    await app.playButton.click();
    await expect(app.output).toContainText('node/node-1 drained', { timeout: 30_000 });
    app.expectNoErrors();
  });

  test('without --ignore-daemonsets the drain stops, nothing evicted, the node cordoned', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(BEFORE_DRAIN);
    await app.newTab('kubectl').click();
    await app.type('kubectl drain node-1');
    await expect(app.stderr).toContainText(
      'error: unable to drain node "node-1" due to error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/node-agent-',
    );
    await expect(app.output).not.toContainText('evicting pod');
    await app.type('kubectl get nodes');
    await expect(app.output).toContainText(/node-1\s+Ready,SchedulingDisabled/);
    app.expectNoErrors();
  });

  test('a typed delete pod deletes at the playhead and the Pod terminates', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(BEFORE_DRAIN);
    await app.newTab('kubectl').click();
    await app.type('kubectl get pods -o name');
    await expect(app.output).toContainText('pod/web-');
    const name = /pod\/(web-\S+)/.exec(await app.output.innerText())![1];
    await app.type(`kubectl delete pod ${name}`);
    await expect(app.output).toHaveText(`$ kubectl delete pod ${name}\npod "${name}" deleted\n`, { useInnerText: true });
    await expect(page).toHaveURL(new RegExp(`actions=delete-pod:default%2F${name}@1m40s`));
    await app.screenshot('maintenance-delete-pod');
    await app.type('kubectl get pods');
    await expect(app.output).toContainText(new RegExp(`${name}\\s+1/1\\s+Terminating`));
    await app.type('kubectl delete pod web-nosuch --force');
    await expect(app.stderr).toHaveText(
      'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\nError from server (NotFound): pods "web-nosuch" not found\n',
      { useInnerText: true },
    );
    app.expectNoErrors();
  });

  test('bad command lines get kubectl errors and change nothing', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(BEFORE_DRAIN);
    await app.newTab('kubectl').click();
    await app.type('kubectl drain');
    await expect(app.stderr).toHaveText("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples\n", {
      useInnerText: true,
    });
    await app.type('kubectl uncordon node-9');
    await expect(app.stderr).toHaveText('Error from server (NotFound): nodes "node-9" not found\n', { useInnerText: true });
    await app.type('kubectl drain node-1 --grace-period=soon');
    await expect(app.stderr).toContainText('invalid argument "soon" for "--grace-period" flag');
    await expect(page).not.toHaveURL(/actions=/);
    app.expectNoErrors();
  });

  test('get pdb and describe pdb show the budget the drain works against', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=maintenance&step=4&autoplay=0');
    await app.newTab('kubectl').click();
    await app.suggestion('kubectl get pdb').click();
    await expect(app.output).toContainText(/web\s+5\s+N\/A\s+\d\s+/);
    await app.suggestion('kubectl describe pdb').click();
    await expect(app.output).toContainText('Min available:  5');
    await expect(app.output).toContainText('Selector:       app=web');
    app.expectNoErrors();
  });

  test('the chapter reads in Japanese', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=maintenance&step=3&autoplay=0&lang=ja');
    await expect(page.getByRole('heading', { name: 'drain: 退避は一斉に' })).toBeVisible();
    app.expectNoErrors();
  });
});
