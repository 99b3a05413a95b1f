import { expect, test } from '@playwright/test';
import { expectNoViolations } from '../pages/axe';
import { KubectlPage } from '../pages/kubectl';
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

  test('each of the chapter\'s actions, from the sandbox, on the machine picked', async ({ page }) => {
    const app = new PanelsPage(page);
    // Step 2: node-3 is registered and Ready; node-2 runs db-0.
    await app.goto('./?chapter=node-goes-away&step=2&autoplay=0');
    const stage = page.locator('svg.stage-svg');
    await app.machinePicker.selectOption({ label: 'node-3' });
    await app.action('Taint out-of-service').click();
    await expect(app.forkNotice).toContainText(/taint-out-of-service:node-3@/);
    await expect(app.action('Taint out-of-service')).toHaveAttribute('aria-disabled', 'true');
    await app.action('Remove out-of-service taint').click();
    await expect(app.forkNotice).toContainText(/untaint-out-of-service:node-3@/);
    await expect(app.action('Remove out-of-service taint')).toHaveAttribute('aria-disabled', 'true');
    // node-3's kubelet has no shutdown periods: the shutdown is immediate, as a power-off.
    await app.action('Shut down machine').click();
    await expect(app.forkNotice).toContainText(/shutdown:node-3@/);
    await expect(app.action('Shut down machine')).toHaveAttribute('aria-disabled', 'true');
    await app.action('Delete Node').click();
    await expect(app.forkNotice).toContainText(/delete-node:node-3@/);
    await expect(app.action('Delete Node')).toHaveAttribute('aria-disabled', 'true');
    await app.machinePicker.selectOption({ label: 'node-2' });
    await app.action('Power off machine').click();
    await expect(app.forkNotice).toContainText(/power-off:node-2@/);
    await expect(stage.getByRole('group', { name: 'node-2: machine powered off' })).toHaveCount(1);
    await expect(app.action('Power off machine')).toHaveAttribute('aria-disabled', 'true');
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

  test('the inspector shows the Node the step is about, until the reader picks a machine', async ({ page }) => {
    const app = new PanelsPage(page);
    // Step 9: node-2, powered off, is about to be tainted out of service.
    await app.goto('./?chapter=node-goes-away&step=9&autoplay=0');
    const picker = app.inspector.getByRole('combobox', { name: 'Node to inspect' });
    await expect(picker).toHaveValue('node-2');
    await expect(app.inspector.locator('table.get-nodes tbody td').first()).toHaveText('node-2');
    await expect(app.nodeStatus).toHaveText('NotReady');
    // The reader's choice of machine in the sandbox wins over the story's.
    await app.machinePicker.selectOption({ label: 'node-1' });
    await expect(picker).toHaveValue('node-1');
    await expect(app.inspector.locator('table.get-nodes tbody td').first()).toHaveText('node-1');
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

  test('kubectl taint and kubectl delete node typed in the panel act at the playhead', async ({ page }) => {
    const app = new KubectlPage(page);
    // Step 8: node-2 is off and db-0 stuck Terminating; the chapter's own taint comes later.
    await app.goto('./?chapter=node-goes-away&step=8&autoplay=0');
    await app.newTab('kubectl').click();
    await app.type('kubectl taint nodes node-2 dedicated=db:Sometimes');
    await expect(app.stderr).toContainText('error: invalid taint effect: Sometimes, unsupported taint effect');
    await app.type('kubectl taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute');
    await expect(app.output).toContainText('node/node-2 tainted');
    await expect(page).toHaveURL(/actions=taint:node-2%2Fnode\.kubernetes\.io%2Fout-of-service%3Dnodeshutdown:NoExecute@/);
    await app.type('kubectl describe node node-2');
    await expect(app.output).toContainText(/Taints:\s+node\.kubernetes\.io\/out-of-service=nodeshutdown:NoExecute/);
    // One changing command per moment: the Node deleted at step 2.
    await app.goto('./?chapter=node-goes-away&step=2&autoplay=0');
    await app.newTab('kubectl').click();
    await app.type('kubectl delete node nope');
    await expect(app.stderr).toHaveText('Error from server (NotFound): nodes "nope" not found\n');
    await app.type('kubectl delete node node-3');
    await expect(app.output).toContainText('node "node-3" deleted');
    app.expectNoErrors();
  });

  test('the stage opens the StatefulSet and the VolumeAttachment in the YAML tab; kubectl lists them', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=node-goes-away&step=9&autoplay=0');
    const stage = page.locator('svg.stage-svg');
    await stage.getByText('StatefulSet db · ordinal 0').click();
    await expect(app.newTab('YAML')).toHaveAttribute('aria-selected', 'true');
    await expect(app.yamlObject).toHaveValue('StatefulSet/default/db');
    await expect(app.yaml).toContainText('kind: StatefulSet');
    await expect(app.yaml).toContainText('collisionCount: 0');
    await stage.getByRole('group', { name: /^node-2: volume pvc-/ }).click();
    await expect(app.yamlObject).toHaveValue(/^VolumeAttachment\/\/csi-[0-9a-f]{64}$/);
    await expect(app.yaml).toContainText('kind: VolumeAttachment');
    await expect(app.yaml).toContainText('nodeName: node-2');
    await app.yamlObject.selectOption('PersistentVolumeClaim/default/data-db-0');
    await expect(app.yaml).toContainText('pv.kubernetes.io/bind-completed: "yes"');
    await app.newTab('kubectl').click();
    await app.type('kubectl get sts,pvc');
    await expect(app.output).toContainText(/statefulset\.apps\/db\s+[01]\/1/);
    await expect(app.output).toContainText(/persistentvolumeclaim\/data-db-0\s+Bound\s+pvc-/);
    await app.type('kubectl get volumeattachments');
    await expect(app.output).toContainText(/pd\.csi\.storage\.gke\.io\s+pvc-\S+\s+node-2\s+true/);
    app.expectNoErrors();
  });

  // The moments the steps open on, played into at 60x: what each step says happens next does
  // happen, as kubectl in the panel prints it at the moving playhead.
  test('played from steps 4, 6, 7 and 9, each step\'s moment comes as the chapter tells it', async ({ page }) => {
    test.slow();
    const app = new KubectlPage(page);
    // Opened paused, the command typed, then played: the first output is the step's own moment.
    const play = async (step: number, command: string, before: RegExp) => {
      await app.goto(`./?chapter=node-goes-away&step=${step}&speed=60&autoplay=0`);
      await app.newTab('kubectl').click();
      await app.type(command);
      await expect(app.output).toContainText(before);
      await app.playButton.click();
    };
    const orphan = /web-\S+\s+1\/1\s+Running\s+\d+\s+\S+\s+[\d.]+\s+node-3/;
    // Step 4: node-3's Node is gone; its Pod is an orphan until PodGC collects it (step 5).
    await play(4, 'kubectl get pods -o wide', orphan);
    await expect(app.output).not.toContainText(orphan, { timeout: 15_000 });
    await app.type('kubectl get nodes');
    await expect(app.output).not.toContainText('node-3');
    // Step 6: the restarted kubelet registers a new node-3, which turns Ready.
    await play(6, 'kubectl get nodes', /node-2\s+Ready\s/);
    await expect(app.output).toContainText(/node-3\s+Ready\s/, { timeout: 15_000 });
    // Step 7: node-2 powered off says nothing; the node lifecycle controller marks it NotReady.
    await play(7, 'kubectl get nodes', /node-2\s+Ready\s/);
    await expect(app.output).toContainText(/node-2\s+NotReady\s/, { timeout: 15_000 });
    // Step 9 into step 10: out-of-service frees db-0, which comes back on node-3 with its volume.
    await play(9, 'kubectl get pods -o wide', /db-0\s+\S+\s+Terminating\s.*node-2/);
    await expect(app.output).toContainText(/db-0\s+1\/1\s+Running\s.*node-3/, { timeout: 20_000 });
    await app.type('kubectl get volumeattachments');
    await expect(app.output).toContainText(/pvc-\S+\s+node-3\s+true/, { timeout: 15_000 });
    await expect(app.output).not.toContainText('node-2');
    app.expectNoErrors();
  });

  test('the describe suggestions print the StatefulSet, its claim, the volume and its attachment', async ({ page }) => {
    const app = new KubectlPage(page);
    // Step 9: node-2 is off, db-0 Terminating there, its volume still attached to node-2.
    await app.goto('./?chapter=node-goes-away&step=9&autoplay=0');
    await app.newTab('kubectl').click();
    await app.suggestion('kubectl describe sts db').click();
    await expect(app.output).toContainText(/Replicas:\s+1 desired \| 1 total/);
    await expect(app.output).toContainText(/Volume Claims:\s+Name:\s+data\s/);
    await app.suggestion('kubectl describe pvc data-db-0').click();
    await expect(app.output).toContainText(/Status:\s+Bound\s+Volume:\s+pvc-/);
    await expect(app.output).toContainText('Used By:');
    await app.suggestion('kubectl describe pv').click();
    await expect(app.output).toContainText(/Claim:\s+default\/data-db-0/);
    await expect(app.output).toContainText(/Driver:\s+pd\.csi\.storage\.gke\.io/);
    await app.suggestion('kubectl describe volumeattachments').click();
    await expect(app.output).toContainText(/Node Name:\s+node-2/);
    await expect(app.output).toContainText(/Attached:\s+true/);
    await app.type('kubectl describe pvc nope');
    await expect(app.stderr).toHaveText('Error from server (NotFound): persistentvolumeclaims "nope" not found\n');
    app.expectNoErrors();
  });

  test('in Japanese: the powered-off machine, its volume, db-0 and the shutdown setting, with axe', async ({ page }) => {
    test.slow();
    const app = new PanelsPage(page);
    await app.goto('./?chapter=node-goes-away&step=8&autoplay=0&lang=ja');
    const stage = page.locator('svg.stage-svg');
    await expect(stage.getByRole('group', { name: 'node-2: マシンの電源オフ' })).toHaveCount(1);
    await expect(stage.getByRole('group', { name: /^node-2: ボリューム pvc-\S+ アタッチ済み（Pod db-0 が使用）$/ })).toHaveCount(1);
    await expect(stage.getByText('StatefulSet db・序数 0')).toHaveCount(1);
    await expectNoViolations(page, 'node-goes-away step 8 in Japanese');
    // The kubelet setting: a pair the kubelet refuses is said, in Japanese, with its message.
    const grace = page.getByRole('textbox', { name: 'shutdownGracePeriod', exact: true });
    const critical = page.getByRole('textbox', { name: 'shutdownGracePeriodCriticalPods' });
    await grace.fill('10s');
    await critical.fill('30s');
    await page.getByRole('button', { name: '適用してやり直す' }).click();
    await expect(grace).toHaveAccessibleDescription(
      /kubelet はこの設定を受け付けません: invalid configuration: shutdownGracePeriodCriticalPods 30s must be <= shutdownGracePeriod 10s/,
    );
    await critical.fill('5s');
    await page.getByRole('button', { name: '適用してやり直す' }).click();
    await expect(page).toHaveURL(/shutdownGracePeriod=10s&shutdownGracePeriodCriticalPods=5s/);
    await expect(stage.getByRole('group', { name: 'node-2: マシンの電源オフ' })).toHaveCount(1);
    app.expectNoErrors();
  });
});
