import { expect, test } from '@playwright/test';
import { KubectlPage } from '../pages/kubectl';

// "Before the Node" (stories/tls-bootstrap.yaml, `?story=tls-bootstrap`): the kubelet's TLS
// bootstrap, listed before the first chapter; the stage shows what the kubelet holds, the kubectl
// panel what kubectl prints (held to the real kubectl by tests/it/kubectl_parity.rs), and
// `kubectl logs` fails until the serving certificate is issued.
const STORY = './?story=tls-bootstrap';

test.describe('before the Node: the TLS bootstrap', () => {
  test('listed first; the stage shows the bootstrap token, then the certificate on disk', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(`${STORY}&step=1&autoplay=0`);
    const list = page.getByRole('navigation', { name: 'Chapters' }).getByRole('link');
    await expect(list.first()).toHaveAccessibleName("Story Before the Node: the kubelet's TLS bootstrap");
    await expect(list.nth(1)).toHaveAccessibleName('Chapter 1 Node registration');
    const stage = page.getByRole('region', { name: 'Stage', exact: true });
    await expect(
      stage.getByRole('group', {
        name: 'node-1: the kubelet has only its bootstrap kubeconfig, /etc/kubernetes/bootstrap-kubelet.conf; no certificate in /var/lib/kubelet/pki yet',
      }),
    ).toBeVisible();
    await app.stepLink(5).click();
    await expect(app.stepTitle).toHaveText('Credentials on disk');
    await expect(
      stage.getByRole('group', { name: /^node-1: \/var\/lib\/kubelet\/pki\/kubelet-client-current\.pem, a symlink to kubelet-client-.+\.pem$/ }),
    ).toBeVisible();
    await app.newTab('kubectl').click();
    await app.type('kubectl get csr');
    await expect(app.output).toContainText(/csr-\w{5}\s+\S+\s+kubernetes\.io\/kube-apiserver-client-kubelet\s+system:bootstrap:07401b\s+<none>\s+Approved,Issued/);
    app.expectNoErrors();
  });

  test('kubectl logs fails until the serving certificate is approved, then says there is no output', async ({ page }) => {
    const app = new KubectlPage(page);
    await app.goto(`${STORY}&actions=create-pod@2m&t=3m&autoplay=0`);
    await app.newTab('kubectl').click();
    await app.type('kubectl logs demo-7pm58');
    await expect(app.stderr).toHaveText(
      'Error from server: Get "https://10.0.0.11:10250/containerLogs/default/demo-7pm58/nginx": remote error: tls: internal error\n',
    );
    await expect(app.inspector.getByRole('note')).toHaveCount(0);
    await app.goto(`${STORY}&actions=create-pod@2m,approve-csr:csr-hr4dq@2m30s&t=3m&autoplay=0`);
    await app.newTab('kubectl').click();
    await app.type('kubectl logs demo-7pm58');
    await expect(app.inspector.getByRole('note')).toContainText('nodeline simulates no container output');
    await expect(app.stderr).toHaveCount(0);
    app.expectNoErrors();
  });
});
