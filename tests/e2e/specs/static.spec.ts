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

test('static build: a link only the app can show stands as its step, dimmed, with a line, until the app mounts', async ({ page }) => {
  const app = new AppPage(page);
  // Hold the WebAssembly back to see the page as a reader on a slow network does.
  const release = await holdWasm(page);
  // Not waiting for `load`: the held wasm delays it. A link the still view cannot show as told
  // (another Kubernetes release: still.spec.ts has the links it shows): its chapter's step stands,
  // not a blank page, marked as what it is.
  await page.goto('./?chapter=registration&step=2&k8s=1.31', { waitUntil: 'commit' });
  const loading = page.getByRole('status').filter({ hasText: 'Loading the simulation for this link…' });
  await expect(loading).toBeVisible();
  const still = page.locator('main[data-still]');
  await expect(still).toBeVisible();
  await expect(still.locator('#narration-title')).toHaveText('The kubelet POSTs its Node');
  // Seen, not used: its controls would open the story as told, not the link's.
  await expect(still).toHaveAttribute('inert', '');
  await expect(page.locator('header[data-still]')).toHaveAttribute('inert', '');
  await expect(page.locator('html')).toHaveAttribute('data-still-loading', '');
  // Layout shifts from here on, while the app takes the still view's place.
  await page.evaluate(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[]) {
        if (!e.hadRecentInput) w.__shift += e.value;
      }
    }).observe({ type: 'layout-shift' });
  });

  release();
  await expect(app.main).toBeVisible();
  await expect(loading).toHaveCount(0);
  await expect(app.status).toContainText('Step 2 of 6');
  await expect(page.locator('[data-still]')).toHaveCount(0);
  await expect(page.locator('html')).not.toHaveAttribute('data-still-loading', '');
  const shift = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
  expect(shift, 'layout shift while the app took over').toBeLessThanOrEqual(0.02);
  // The WebAssembly was asked for only after the first paint (nothing preloads it: on a phone's
  // network it would hold the first paint back).
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

test('static build: without WebAssembly such a link leaves its step as the page, with no loading line', async ({ page }) => {
  // A browser that cannot run the app: the still view is all it will get, so it is not held back.
  await page.addInitScript(() => {
    delete (window as unknown as { WebAssembly?: unknown }).WebAssembly;
  });
  await page.goto('./?chapter=node-failure&step=3&t=2m', { waitUntil: 'commit' });
  const still = page.locator('main[data-still]');
  await expect(still.locator('section.narration .step-of')).toHaveText('Step 3 of 6');
  await expect(page.locator('html')).toHaveAttribute('data-still-ready', '');
  await expect(still).not.toHaveAttribute('inert', '');
  await expect(still).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.getByRole('status').filter({ hasText: 'Loading the simulation for this link…' })).toHaveCount(0);
  // And it moves between steps as it does for any link.
  await page.getByRole('navigation', { name: 'Steps of this chapter' }).getByRole('link', { name: /^Play from step 4:/ }).click();
  await expect(still.locator('section.narration .step-of')).toHaveText('Step 4 of 6');
});

test('static build: when the WebAssembly cannot be fetched, the still view is the page, and says why', async ({ page }) => {
  await page.route('**/*.wasm', (route) => route.abort());
  // A link only the app can show: its step stood dimmed with the loading line until the loader
  // failed; then the step is the page, and the line says what happened.
  await page.goto('./?chapter=registration&step=2&k8s=1.31', { waitUntil: 'commit' });
  const failed = page.getByRole('status').filter({ hasText: 'The simulation could not be loaded here' });
  await expect(failed).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Loading the simulation for this link…' })).toHaveCount(0);
  const still = page.locator('main[data-still]');
  await expect(still).not.toHaveAttribute('inert', '');
  await expect(still).not.toHaveAttribute('aria-busy', 'true');
  await expect(page.locator('html')).not.toHaveAttribute('data-still-loading', '');
  await page.getByRole('navigation', { name: 'Steps of this chapter' }).getByRole('link', { name: /^Play from step 3:/ }).click();
  await expect(still.locator('section.narration .step-of')).toHaveText('Step 3 of 6');
  // In Japanese, in Japanese.
  await page.goto('./?chapter=registration&step=2&lang=ja', { waitUntil: 'commit' });
  await expect(page.getByRole('status').filter({ hasText: 'ここではシミュレーションを読み込めませんでした' })).toBeVisible();
});

test('static build: a link that names a time stands at the step that time falls in, as the app does', async ({ page }) => {
  const app = new AppPage(page);
  const release = await holdWasm(page);
  await page.goto('./?chapter=node-failure&t=3m30s', { waitUntil: 'commit' });
  const still = page.locator('main[data-still]');
  await expect(page.locator('html')).toHaveAttribute('data-still-ready', '');
  const shown = (await still.locator('section.narration .step-of').textContent()) ?? '';
  expect(shown).not.toBe('Step 1 of 6');
  release();
  await expect(app.main).toBeVisible();
  await expect(page.locator('[data-still]')).toHaveCount(0);
  await expect(page.locator('section.narration .step-of')).toHaveText(shown);
  app.expectNoErrors();
});
