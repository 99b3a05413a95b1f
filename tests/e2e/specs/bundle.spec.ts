import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AppPage } from '../pages/app-page';
import { bundleDir, cspViolationsIn, recordCspViolations, recordRequests, serveFolder } from '../pages/shipping';

test.describe('offline bundle', () => {
  test('nodeline.html runs from file:// with no server and requests nothing but itself', async ({ page }) => {
    const file = path.join(bundleDir(), 'nodeline.html');
    const url = `${pathToFileURL(file).href}?chapter=node-failure&step=2&autoplay=0`;
    const refused = await recordCspViolations(page);
    const requests = recordRequests(page);
    const app = new AppPage(page);
    await app.goto(url);
    await expect(app.status).toContainText('Step 2 of 6');
    await expect(app.heading).toHaveText('nodeline');
    await app.playButton.click();
    await expect(app.pauseButton).toBeVisible();
    await app.waitForClockAtLeast(100);
    await app.pauseButton.click();
    await app.chapterLink(3).click();
    await expect(app.chapterLink(3)).toHaveAttribute('aria-current', 'page');

    expect(requests).toEqual([url]);
    expect(await cspViolationsIn(page)).toEqual([]);
    expect(refused).toEqual([]);
    app.expectNoErrors();
  });

  test("nodeline.html tells the site's stories it carries, and says which it does not", async ({ page }) => {
    const file = path.join(bundleDir(), 'nodeline.html');
    const url = `${pathToFileURL(file).href}?story=two-nodes-fail&step=3&autoplay=0`;
    const refused = await recordCspViolations(page);
    const requests = recordRequests(page);
    const app = new AppPage(page);
    await app.goto(url);
    await expect(app.status).toContainText('Step 3 of 7');
    const chapters = page.getByRole('navigation', { name: 'Chapters' });
    await expect(chapters.getByRole('link', { name: 'Story Two nodes fail at once' })).toHaveAttribute('aria-current', 'page');
    // Every story of the site is listed, and opens in place.
    await chapters.getByRole('link', { name: "Story Before the Node: the kubelet's TLS bootstrap" }).click();
    await expect(chapters.getByRole('link', { name: "Story Before the Node: the kubelet's TLS bootstrap" })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(app.notices).toBeHidden();
    expect(requests).toEqual([url]);
    expect(await cspViolationsIn(page)).toEqual([]);
    expect(refused).toEqual([]);
    app.expectNoErrors();
    // A story it does not carry: the first chapter, and why.
    await app.goto(`${pathToFileURL(file).href}?story=nowhere`);
    await expect(app.notices).toContainText('nodeline.html carries no story "nowhere"');
    await expect(app.chapterLink(1)).toHaveAttribute('aria-current', 'page');
  });

  test('nodeline-offline.zip is one folder that works copied into any docs tree', async ({ page }) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nodeline-offline-'));
    try {
      execFileSync('python3', ['-m', 'zipfile', '-e', path.join(bundleDir(), 'nodeline-offline.zip'), dir]);
      expect(fs.readdirSync(dir)).toEqual(['nodeline']);
      const folder = path.join(dir, 'nodeline');
      const files = fs.readdirSync(folder);
      for (const name of ['index.html', 'nodeline.html', 'README.txt', 'public']) {
        expect(files).toContain(name);
      }
      expect(files.some((f) => f.endsWith('.wasm'))).toBe(true);
      expect(fs.readdirSync(path.join(folder, 'public'))).toEqual(
        expect.arrayContaining(['embed-example.html', 'embed-example.js', 'embed-example.css']),
      );
      expect(fs.readFileSync(path.join(folder, 'nodeline.html'))).toEqual(
        fs.readFileSync(path.join(bundleDir(), 'nodeline.html')),
      );
      const readme = fs.readFileSync(path.join(folder, 'README.txt'), 'utf8');
      expect(readme).toContain("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'");
      expect(readme).toContain('?embed=1');

      // Dropped into a docs site's tree, under a path of its own, on a host of its own.
      const base = 'http://docs.example/k8s/nodeline/';
      await serveFolder(page, base, folder);
      const requests = recordRequests(page);
      const app = new AppPage(page);
      await app.goto(`${base}?chapter=registration&step=2&autoplay=0`);
      await expect(app.status).toContainText('Step 2 of 6');
      await app.playButton.click();
      await expect(app.pauseButton).toBeVisible();
      expect(requests.filter((u) => !u.startsWith(base))).toEqual([]);
      app.expectNoErrors();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
