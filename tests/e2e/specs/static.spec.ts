import { expect, test } from '@playwright/test';
import { AppPage } from '../pages/app-page';
import { holdWasm, recordRequests } from '../pages/shipping';

// The release build as a plain static host serves it (no rewrites): at the root and under a
// docs sub-path, it becomes interactive and asks nothing of any origin but its own.
for (const [where, prefix] of [
  ['at the root of the host', './'],
  ['under a docs sub-path', '/docs/k8s/nodeline/'],
] as const) {
  test(`static build ${where}: interactive, every request on its own origin`, async ({ page }) => {
    const app = new AppPage(page);
    const requests = recordRequests(page);
    await app.goto(`${prefix}?chapter=node-failure&step=2&autoplay=0`);
    await expect(app.status).toContainText('Step 2 of 6');
    await app.playButton.click();
    await expect(app.pauseButton).toBeVisible();
    await app.waitForClockAtLeast(1);
    await app.pauseButton.click();

    const origin = new URL(page.url()).origin;
    const base = new URL(prefix, `${origin}/`).href;
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((u) => !u.startsWith(base)), `requests outside ${base}`).toEqual([]);
    // The wasm, its glue, the loader and the style sheets came from where the page is.
    for (const kind of [/\.wasm$/, /nodeline-[0-9a-f]+\.js$/, /nodeline-start-[0-9a-f]{16}\.js$/, /\.css$/]) {
      expect(requests.some((u) => kind.test(u)), `${kind}`).toBe(true);
    }
    app.expectNoErrors();
  });
}

test('static build: the poster shows the story until the app mounts, then gives way to it', async ({ page }) => {
  const app = new AppPage(page);
  // Hold the WebAssembly back to see the page as a reader on a slow network does.
  const release = await holdWasm(page);
  // Not waiting for `load`: the held wasm delays it. A link the still view cannot show (another
  // Kubernetes release: still.spec.ts has the still view), so the poster stands.
  await page.goto('./?chapter=registration&step=2&k8s=1.31', { waitUntil: 'commit' });
  const poster = page.locator('#nodeline-poster');
  await expect(poster).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'nodeline' })).toBeVisible();
  // While the app loads, the poster starts where the link points: chapter 1 from step 2; the
  // rest of the story is in the page (for readers without JavaScript), not shown.
  await expect(page.getByRole('heading', { level: 2, name: 'Chapter 1 Node registration' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'The kubelet POSTs its Node' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 3, name: 'A machine with a kubelet, and no Node yet' })).toBeHidden();
  await expect(page.locator('section.poster-lang[lang="en"] .poster-chapter[data-chapter="kubelet-restart"]')).toBeHidden();
  await expect(page.locator('section.poster-lang[lang="ja"]')).toBeHidden();
  await expect(page.getByRole('link', { name: /^Play from step 4: Not Ready/ })).toHaveAttribute(
    'href',
    '?chapter=registration&step=4&lang=en',
  );
  await expect(page.getByRole('main')).toHaveCount(0);

  release();
  await expect(app.main).toBeVisible();
  await expect(poster).toHaveCount(0);
  // The WebAssembly was asked for only after the poster was painted (nothing preloads it: on a
  // phone's network it would hold the first paint back).
  const [painted, fetched] = await page.evaluate(() => [
    performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Infinity,
    performance.getEntriesByType('resource').find((r) => r.name.endsWith('.wasm'))?.startTime ?? -1,
  ]);
  expect(fetched, `wasm requested at ${fetched} ms, first paint at ${painted} ms`).toBeGreaterThanOrEqual(painted);
  // One story on the page: the app's header is the only level-1 heading, the step list the only
  // "Play from step" links.
  await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
  await expect(page.getByRole('link', { name: /^Play from step \d+:/ })).toHaveCount(6);
  app.expectNoErrors();
});
