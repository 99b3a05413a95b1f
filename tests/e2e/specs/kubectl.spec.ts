import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { KubectlPage } from '../pages/kubectl';

/** axe-core (the rules the a11y spec uses) on the inspector only. */
async function expectNoInspectorViolations(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .include('.inspector')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')}: ${n.failureSummary}`).join('\n')}`,
  );
  expect(summary, `axe violations: ${what}`).toEqual([]);
}

// Expected texts are what `nodeline kubectl --chapter registration --at 1m30s -- ARGS` prints,
// which tests/it/kubectl_parity.rs checks against the real kubectl.
const STEP6 = './?chapter=registration&step=6&autoplay=0';

test.describe('kubectl panel', () => {
  test('typed commands print what kubectl prints at the playhead', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(STEP6);
    await app.newTab('kubectl').click();
    await expect(app.openPanel).toContainText('Run a command');
    await app.type('kubectl get nodes');
    await app.expectTranscript(
      'kubectl get nodes',
      'NAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   90s   v1.34.1\n',
    );
    await expect(app.prompt).toHaveValue('');
    // `kubectl` in front is optional, as in a shell alias.
    await app.type('get pods -o wide');
    await app.expectTranscript(
      'kubectl get pods -o wide',
      'NAME             READY   STATUS    RESTARTS   AGE   IP           NODE     NOMINATED NODE   READINESS GATES\n' +
        'demo-dq4ck       1/1     Running   0          68s   10.244.0.2   node-1   <none>           <none>\n' +
        'tolerant-bwbt7   1/1     Running   0          62s   10.244.0.3   node-1   <none>           <none>\n',
    );
    app.expectNoErrors();
  });

  test('suggestions run, and the output follows the playhead', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(STEP6);
    await app.newTab('kubectl').click();
    await app.suggestion('kubectl describe node node-1').click();
    await expect(app.output).toContainText('Name:               node-1');
    await expect(app.output).toContainText(/Conditions:\n  Type\s+Status\s+LastHeartbeatTime/);
    await expect(app.output).toContainText('Normal  NodeReady');
    await app.screenshot('kubectl-describe');
    await app.suggestion('kubectl get nodes').click();
    await expect(app.output).toContainText('node-1   Ready    <none>   90s');
    // Move the playhead: the same command answers for the new moment.
    await page.getByRole('slider', { name: 'Timeline' }).press('PageUp');
    await expect(app.clock).toHaveText('T+02:30');
    await expect(app.output).toContainText('node-1   Ready    <none>   2m30s');
    app.expectNoErrors();
  });

  test('arrow keys recall earlier commands', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(STEP6);
    await app.newTab('kubectl').click();
    await app.type('kubectl get nodes');
    await app.type('kubectl get events');
    await app.prompt.fill('kubectl get le');
    await app.prompt.press('ArrowUp');
    await expect(app.prompt).toHaveValue('kubectl get events');
    await app.prompt.press('ArrowUp');
    await expect(app.prompt).toHaveValue('kubectl get nodes');
    await app.prompt.press('ArrowUp');
    await expect(app.prompt).toHaveValue('kubectl get nodes');
    await app.prompt.press('ArrowDown');
    await expect(app.prompt).toHaveValue('kubectl get events');
    await app.prompt.press('ArrowDown');
    await expect(app.prompt).toHaveValue('kubectl get le');
    // The arrows recalled commands; they did not move the playhead.
    await expect(app.clock).toHaveText('T+01:30');
    app.expectNoErrors();
  });

  test('errors are kubectl’s, and nothing breaks', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(STEP6);
    await app.newTab('kubectl').click();
    await app.type('kubectl gett nodes');
    await expect(app.stderr).toHaveText(
      'Error: unknown command "gett" for "kubectl"\n\nDid you mean this?\n\tset\n\tget\n\n',
      { useInnerText: true },
    );
    await app.type('kubectl get node nope');
    await expect(app.stderr).toHaveText('Error from server (NotFound): nodes "nope" not found\n', { useInnerText: true });
    await app.type('kubectl get nodes --bogus');
    await expect(app.stderr).toHaveText("Error: unknown flag: --bogus\nSee 'kubectl get --help' for usage.\n", {
      useInnerText: true,
    });
    // Nodes and Pods are deleted as actions; other kinds are not simulated.
    await app.type('kubectl delete svc web');
    await expect(app.stderr).toContainText('does not simulate "kubectl delete"');
    await app.type("kubectl get 'nodes");
    await expect(app.stderr).toContainText('quote is not closed');
    // Markup in a command is text, not HTML.
    await app.type('kubectl get <b>x');
    await expect(app.output.locator('b')).toHaveCount(0);
    await expect(app.stderr).toHaveText('error: the server doesn\'t have a resource type "<b>x"\n', { useInnerText: true });
    app.expectNoErrors();
  });
});

test.describe('kubectl YAML tab', () => {
  test('marks what the last request wrote and names it; diffs two versions', async ({ page }) => {
    const app = new KubectlPage(page);
    // Node failure, step 3 plays into the controller's Unknown write.
    await app.goto('./?chapter=node-failure&step=3&autoplay=0');
    await app.newTab('YAML').click();
    await expect(app.yamlObject).toHaveValue('Node//node-1');
    await expect(app.yaml).toContainText('apiVersion: v1\nkind: Node\nmetadata:');
    await expect(app.change).toHaveText(/^Changed at T\+\d\d:\d\d\.\d{3} by (PUT|PATCH) \/api\/v1\/nodes\/node-1/);
    await expect(app.changedLines.first()).toBeVisible();
    await app.screenshot('kubectl-yaml');
    // Another object.
    await app.yamlObject.selectOption('Lease/kube-node-lease/node-1');
    await expect(app.yaml).toContainText('kind: Lease');
    await expect(app.change).toHaveText(/by PUT \/apis\/coordination\.k8s\.io\/v1\/namespaces\/kube-node-lease\/leases\/node-1 from kubelet\/node-1 \(200\)\./);
    await expect(app.changedLines.filter({ hasText: 'renewTime' })).toHaveCount(1);
    // Compare with the first version: a diff to the playhead.
    const first = await app.compareWith.locator('option').last().getAttribute('value');
    await app.compareWith.selectOption(first ?? '');
    await expect(app.diff).toBeVisible();
    await expect(app.diff.locator('ins').filter({ hasText: 'renewTime' })).toHaveCount(1);
    await expect(app.diff.locator('del').filter({ hasText: 'renewTime' })).toHaveCount(1);
    await app.screenshot('kubectl-yaml-diff');
    app.expectNoErrors();
  });
});

test.describe('kubectl Requests tab', () => {
  test('a request opens to its -v=8 lines, from the list or from the stage', async ({ page }) => {
    const app = new KubectlPage(page);
    // Just after the kubelet's POST /api/v1/nodes (sent at T+00:00.450, drawn from 1.29 s, after
    // the CSINode tries and the two Lease reads before it): its packet is on the stage.
    await app.goto('./?chapter=registration&t=1.5s&autoplay=0');
    const post = app.packet().filter({ hasText: 'POST /api/v1/nodes' });
    await expect(post).toBeVisible();
    // A click on the packet itself (its bounding box's centre can fall on the frame below it).
    await post.dispatchEvent('click');
    await expect(app.newTab('Requests')).toHaveAttribute('aria-selected', 'true');
    await expect(app.verbose).toContainText('POST https://10.0.0.10:6443/api/v1/nodes\nRequest Headers:');
    await expect(app.verbose).toContainText('Content-Type: application/json');
    await expect(app.verbose).toContainText('Response Status: 201 Created in ');
    // The status patch that follows, opened from the list.
    await app.request(/PATCH \/api\/v1\/nodes\/node-1\/status → 200$/).click();
    await expect(app.verbose).toHaveCount(1);
    await expect(app.verbose).toContainText('Content-Type: application/strategic-merge-patch+json');
    await app.screenshot('kubectl-requests');
    await app.request(/PATCH \/api\/v1\/nodes\/node-1\/status → 200$/).click();
    await expect(app.verbose).toHaveCount(0);
    app.expectNoErrors();
  });

  test('a request opens and closes from the keyboard, and focus stays on it', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto('./?chapter=registration&t=1s&autoplay=0');
    await app.newTab('Requests').click();
    const patch = app.request(/PATCH \/api\/v1\/nodes\/node-1\/status → 200$/);
    await patch.focus();
    await page.keyboard.press('Enter');
    await expect(app.verbose).toHaveCount(1);
    await expect(app.verbose).toContainText('Content-Type: application/strategic-merge-patch+json');
    await expect(patch, 'the list is updated around the reader, not rebuilt under them').toBeFocused();
    await page.keyboard.press('Enter');
    await expect(app.verbose).toHaveCount(0);
    await expect(patch).toBeFocused();
    app.expectNoErrors();
  });
});

test.describe('kubectl tabs, accessibility', () => {
  for (const theme of ['light', 'dark']) {
    test(`axe finds no violation in the YAML, kubectl, Requests, Lease, Pods and Events tabs, ${theme} theme`, async ({ page }) => {
      // Six axe runs over large tables: on a loaded two-core machine this passes 30 s.
      test.slow();
      const app = new KubectlPage(page);
      await app.goto(`./?chapter=node-failure&step=3&autoplay=0&theme=${theme}`);
      // YAML with a diff open.
      await app.newTab('YAML').click();
      const first = await app.compareWith.locator('option').last().getAttribute('value');
      await app.compareWith.selectOption(first ?? '');
      await expect(app.diff).toBeVisible();
      await expectNoInspectorViolations(page, `YAML ${theme}`);
      // kubectl with output, then an error.
      await app.newTab('kubectl').click();
      await app.type('kubectl get nodes');
      await expect(app.output).toContainText('node-1');
      await expectNoInspectorViolations(page, `kubectl ${theme}`);
      await app.type('kubectl get nodez');
      await expect(app.stderr).toBeVisible();
      await expectNoInspectorViolations(page, `kubectl error ${theme}`);
      // Requests with one opened.
      await app.newTab('Requests').click();
      await app.requests.first().locator('summary').click();
      await expect(app.verbose).toHaveCount(1);
      await expectNoInspectorViolations(page, `Requests ${theme}`);
      // The tabs that were typed views before they were written as markup.
      for (const tab of ['Lease', 'Pods', 'Events'] as const) {
        await app.tab(tab).click();
        await expect(app.tab(tab)).toHaveAttribute('aria-selected', 'true');
        await expectNoInspectorViolations(page, `${tab} ${theme}`);
      }
      app.expectNoErrors();
    });
  }
});
