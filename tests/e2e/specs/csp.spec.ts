import { expect, test } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { EmbedHostPage } from '../pages/embed-host';
import { PanelsPage } from '../pages/panels';
import { cspViolationsIn, recordCspViolations } from '../pages/shipping';

const README = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

test.describe('csp', () => {
  test('the app runs under the Content-Security-Policy the README documents, with no violation', async ({ page }) => {
    const refused = await recordCspViolations(page);
    const app = new PanelsPage(page);
    const response = await page.goto('./?chapter=node-failure&step=3&autoplay=0');
    const policy = response?.headers()['content-security-policy'];
    expect(policy).toBe("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'");
    expect(README).toContain(`\n${policy}\n`);
    await expect(app.main).toBeVisible();

    // Everything that draws: the inspector's tabs (the Lease's grace bar), playback, the stage's
    // animations, a sandbox action, the shortcut sheet.
    await app.tab('Lease').click();
    await expect(app.openPanel).toContainText('grace period');
    await app.tab('Node').click();
    await app.playButton.click();
    await app.waitForClockAtLeast(200);
    await app.pauseButton.click();
    await app.action('Start kubelet').click();
    await expect(app.forkNotice).toContainText('start-kubelet@');
    await app.main.focus();
    await page.keyboard.press('?');
    await expect(page.getByRole('dialog', { name: 'Keyboard shortcuts' })).toBeVisible();
    await page.keyboard.press('Escape');

    expect(await cspViolationsIn(page)).toEqual([]);
    expect(refused).toEqual([]);

    // The policy is really enforced (else this test could not fail): an inline script is refused.
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inlineRan = true';
      document.body.append(script);
      return (window as unknown as { __inlineRan?: boolean }).__inlineRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(() => cspViolationsIn(page)).toEqual([expect.stringContaining('script-src')]);
  });

  test('the example host page and its embeds run under the same policy', async ({ page }) => {
    const refused = await recordCspViolations(page);
    const host = new EmbedHostPage(page);
    await host.open();
    await expect(host.hostStatus(1)).toContainText('paused');
    await host.hostPlay(2).click();
    await expect(host.hostStatus(2)).toContainText('playing');
    await host.hostPause(2).click();
    await expect(host.hostStatus(2)).toContainText('paused');

    expect(await cspViolationsIn(page)).toEqual([]);
    for (const n of [1, 2]) {
      expect(await cspViolationsIn(await host.frame(n))).toEqual([]);
    }
    expect(refused).toEqual([]);
    host.expectNoErrors();
  });
});
