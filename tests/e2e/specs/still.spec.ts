import { expect, test, type Locator, type Page } from '@playwright/test';
import { holdWasm } from '../pages/shipping';

// The still view (src/view/still.rs, still.js): every step pre-rendered by the build, shown and
// navigable before the WebAssembly arrives (here: never, its request refused), then replaced
// by the app in place.

const FLEET = 'The fleet: three zones, one cell per node';
const CHAPTERS = [
  ['registration', 'Node registration', 'Stage'],
  ['node-failure', 'Node failure and Pod recovery', 'Stage'],
  ['kubelet-restart', 'Kubelet restart', 'Stage'],
  ['zone-outage', 'A zone goes dark', FLEET],
  ['maintenance', 'Maintenance', 'Stage'],
  ['node-goes-away', 'A node goes away', 'Stage'],
] as const;

/** Errors on the page, but for the refused WebAssembly and the loader's failure to fetch it. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && !/Failed to load resource: net::ERR_FAILED/.test(m.text())) {
      errors.push(`console.error: ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => {
    if (e.message !== 'Failed to fetch') {
      errors.push(`pageerror: ${e.message}`);
    }
  });
  page.on('requestfailed', (r) => {
    // The browser's own favicon request, cancelled when a test navigates on before it is done.
    const cancelledIcon = /\/favicon-[0-9a-f]+\.svg$/.test(r.url()) && r.failure()?.errorText === 'net::ERR_ABORTED';
    if (!r.url().endsWith('.wasm') && !cancelledIcon) {
      errors.push(`request failed: ${r.url()}`);
    }
  });
  page.on('response', (r) => {
    if (r.status() >= 400) {
      errors.push(`HTTP ${r.status()}: ${r.url()}`);
    }
  });
  return errors;
}

async function withoutWasm(page: Page): Promise<void> {
  await page.route('**/*.wasm', (route) => route.abort());
}

const playback = (page: Page): Locator => page.getByRole('region', { name: 'Playback' });
const narration = (page: Page): Locator => page.locator('.narration');

for (const [id, title, stage] of CHAPTERS) {
  test(`still view, ${id}: every step shown with its stage and navigable without the WebAssembly`, async ({ page }) => {
    const errors = errorsOf(page);
    await withoutWasm(page);
    await page.goto(`./?chapter=${id}&step=1&autoplay=0`);
    const steps = narration(page).getByRole('navigation', { name: 'Steps of this chapter' }).getByRole('link');
    const count = await steps.count();
    expect(count).toBeGreaterThan(2);
    // The chapter's link ("Chapter 4 A zone goes dark"), not a story's that starts the same.
    const chapterLink = page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: new RegExp(`^Chapter \\d+ ${title}$`) });
    await expect(chapterLink).toHaveAttribute(
      'aria-current',
      'page',
    );
    const next = playback(page).getByRole('button', { name: 'Next step', exact: true });
    for (let n = 1; n <= count; n++) {
      if (n > 1) {
        await next.click();
        await expect(next).toBeFocused();
      }
      await expect(narration(page).getByText(`Step ${n} of ${count}`, { exact: true })).toBeVisible();
      const name = (await steps.nth(n - 1).innerText()).trim();
      await expect(narration(page).getByRole('heading', { level: 2 })).toHaveText(name);
      await expect(steps.nth(n - 1)).toHaveAttribute('aria-current', 'step');
      await expect(playback(page).getByRole('button', { name: `Step ${n}`, exact: true })).toHaveAttribute('aria-current', 'step');
      // The stage at the step: one drawing of it shown (the fleet, or the cluster's for the width).
      await expect(page.getByRole('region', { name: stage }).locator('svg.stage-svg:visible, svg.fleet-svg:visible')).toHaveCount(1);
      expect(new URL(page.url()).searchParams.get('step') ?? '1').toBe(String(n));
    }
    // A step of the list, then the previous step.
    await steps.nth(1).click();
    await expect(narration(page).getByText(`Step 2 of ${count}`, { exact: true })).toBeVisible();
    await playback(page).getByRole('button', { name: 'Previous step', exact: true }).click();
    await expect(narration(page).getByText(`Step 1 of ${count}`, { exact: true })).toBeVisible();
    await expect(playback(page).getByRole('button', { name: 'Previous step', exact: true })).toHaveAttribute('aria-disabled', 'true');
    // The language: the same step in Japanese, the address saying so.
    await page.getByRole('link', { name: '日本語' }).click();
    await expect(narration(page).getByText(`ステップ 1 / ${count}`, { exact: true })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    expect(new URL(page.url()).searchParams.get('lang')).toBe('ja');
    expect(errors).toEqual([]);
  });
}

test('still view: links land on their step, chapter, language, theme and embed; chapters switch', async ({ page }) => {
  const errors = errorsOf(page);
  await withoutWasm(page);
  await page.goto('./?chapter=maintenance&lang=ja&theme=dark#step=3');
  await expect(narration(page).getByText(/^ステップ 3 \//)).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  // A chapter's own story file is the chapter.
  await page.goto('./?story=maintenance&step=2');
  await expect(narration(page).getByText('Step 2 of 7', { exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: /Maintenance/ })).toHaveAttribute(
    'aria-current',
    'page',
  );
  // The kube.how card's form.
  await page.goto('./#scheme=cluster-node-failure&step=4');
  await expect(narration(page).getByText('Step 4 of 6', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Stage' })).toBeVisible();
  // A chapter from the header: its first step.
  await page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: /Kubelet restart/ }).click();
  await expect(page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: /Kubelet restart/ })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(narration(page).getByText(/^Step 1 of \d+$/)).toBeVisible();
  expect(new URL(page.url()).searchParams.get('chapter')).toBe('kubelet-restart');
  // "Play from this step" leaves a link that plays when the app arrives.
  await narration(page).getByRole('link', { name: 'Play from this step' }).click();
  expect(new URL(page.url()).searchParams.get('autoplay')).toBeNull();
  // The docs embed: no header, the stage and the step in the frame.
  await page.setViewportSize({ width: 720, height: 640 });
  await page.goto('./?embed=1&chapter=node-failure&step=3');
  await expect(page.getByRole('navigation', { name: 'Chapters' })).toHaveCount(0);
  await expect(narration(page).getByText('Step 3 of 6', { exact: true })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Stage' })).toBeInViewport();
  expect(errors).toEqual([]);
});

test('still view: a story of the site’s is pre-rendered as a chapter is, and navigable', async ({ page }) => {
  const errors = errorsOf(page);
  await withoutWasm(page);
  await page.goto('./?story=two-nodes-fail&step=3');
  const steps = narration(page).getByRole('navigation', { name: 'Steps of this story' }).getByRole('link');
  const count = await steps.count();
  expect(count).toBeGreaterThan(3);
  await expect(narration(page).getByText(`Step 3 of ${count}`, { exact: true })).toBeVisible();
  await expect(narration(page).getByRole('heading', { level: 2 })).toHaveText('Both Unknown in the same pass');
  // The stage at the step's moment: both kubelets stopped, both Nodes NotReady and unreachable.
  const drawn = page.getByRole('region', { name: 'Stage' }).locator('svg.stage-svg:visible');
  await expect(drawn).toHaveCount(1);
  await expect(drawn).toContainText('Node node-1NotReadyunreachable:NoSchedule');
  await expect(drawn).toContainText('Node node-2NotReadyunreachable:NoSchedule');
  await expect(drawn).toContainText('Node node-3ReadyTaints: none');
  const chapters = page.getByRole('navigation', { name: 'Chapters' });
  await expect(chapters.getByRole('link', { name: /Two nodes fail at once/ })).toHaveAttribute('aria-current', 'page');
  await expect(chapters.getByRole('link', { name: /Node failure and Pod recovery/ })).not.toHaveAttribute('aria-current', 'page');
  // The next step, then the same step in Japanese: the address keeps the story.
  await playback(page).getByRole('button', { name: 'Next step', exact: true }).click();
  await expect(narration(page).getByText(`Step 4 of ${count}`, { exact: true })).toBeVisible();
  await page.getByRole('link', { name: '日本語' }).click();
  await expect(narration(page).getByText(`ステップ 4 / ${count}`, { exact: true })).toBeVisible();
  const address = new URL(page.url()).searchParams;
  expect([address.get('story'), address.get('chapter'), address.get('step'), address.get('lang')]).toEqual([
    'two-nodes-fail',
    null,
    '4',
    'ja',
  ]);
  // Another story from the header: its first step, listed before the chapter it names.
  await page.getByRole('navigation', { name: '章' }).getByRole('link', { name: /TLS ブートストラップ/ }).click();
  await expect(narration(page).getByText(/^ステップ 1 \//)).toBeVisible();
  expect(new URL(page.url()).searchParams.get('story')).toBe('tls-bootstrap');
  // A chapter from the header leaves the story (in place: a navigation would cut the next
  // step's file short, which the still view fetches ahead).
  const chaptersJa = page.getByRole('navigation', { name: '章' });
  await chaptersJa.getByRole('link', { name: /kubelet の再起動/ }).click();
  await expect(chaptersJa.getByRole('link', { name: /kubelet の再起動/ })).toHaveAttribute('aria-current', 'page');
  await expect(narration(page).getByText(/^ステップ 1 \//)).toBeVisible();
  expect([new URL(page.url()).searchParams.get('chapter'), new URL(page.url()).searchParams.get('story')]).toEqual([
    'kubelet-restart',
    null,
  ]);
  expect(errors).toEqual([]);
});

/** The share of pixels that differ between two PNG screenshots (compared in a blank page: the site's
 * Content-Security-Policy refuses `data:` images). */
async function differing(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([a, b]) => {
      const load = async (b64: string) => createImageBitmap(await (await fetch(`data:image/png;base64,${b64}`)).blob());
      const [x, y] = [await load(a), await load(b)];
      const w = Math.min(x.width, y.width);
      const h = Math.min(x.height, y.height);
      const pixels = (img: ImageBitmap) => {
        const c = new OffscreenCanvas(w, h);
        const g = c.getContext('2d') as OffscreenCanvasRenderingContext2D;
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, w, h).data;
      };
      const [p, q] = [pixels(x), pixels(y)];
      let diff = Math.abs(x.width - y.width) * h + Math.abs(x.height - y.height) * w;
      for (let i = 0; i < p.length; i += 4) {
        if (Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]) > 24) diff++;
      }
      return diff / (Math.max(x.width, y.width) * Math.max(x.height, y.height));
    },
    [a.toString('base64'), b.toString('base64')] as const,
  );
}

/** Screenshots of the stage, the narration and the timeline, the packets hidden. */
async function shots(page: Page): Promise<Buffer[]> {
  await page.locator('.stage .packets').evaluateAll((gs) => gs.forEach((g) => ((g as SVGElement).style.visibility = 'hidden')));
  const parts = [page.locator('.stage'), narration(page), playback(page).locator('.tl-track')];
  const out: Buffer[] = [];
  for (const p of parts) {
    out.push(await p.screenshot({ animations: 'disabled', caret: 'hide' }));
  }
  return out;
}

for (const [told, step, width, height] of [
  ['chapter=node-failure', 3, 1440, 900],
  ['chapter=maintenance', 4, 390, 844],
  ['story=two-nodes-fail', 4, 1440, 900],
  ['chapter=zone-outage', 4, 1440, 900],
  ['chapter=zone-outage', 4, 390, 844],
] as const) {
  test(`still view vs the app paused at ${told} step ${step}, ${width} px: the same picture`, async ({ browser, baseURL }) => {
    const url = `./?${told}&step=${step}&autoplay=0`;
    const viewport = { width, height };
    const still = await browser.newPage({ baseURL, viewport });
    // The still view as a reader sees it while the app is on its way (its WebAssembly held back,
    // not refused: a refused one puts the line that says so over the page).
    await holdWasm(still);
    await still.goto(url);
    await expect(still.locator('html')).toHaveAttribute('data-still-ready', '');
    const before = await shots(still);
    const app = await browser.newPage({ baseURL, viewport });
    await app.goto(url);
    await expect(app.getByRole('main')).not.toHaveAttribute('aria-busy', 'true');
    const after = await shots(app);
    const blank = await browser.newPage();
    for (const [i, part] of ['stage', 'narration', 'timeline'].entries()) {
      const share = await differing(blank, before[i], after[i]);
      // The issue allows 2 %; the two are drawn from the same markup, and two neighbouring steps'
      // stages differ by less than 1 %: a tighter bound tells them apart.
      expect(share, `${part}: ${(share * 100).toFixed(2)} % of pixels differ`).toBeLessThanOrEqual(0.002);
    }
    await Promise.all([still.close(), app.close(), blank.close()]);
  });
}

for (const [told, count] of [
  ['chapter=node-failure', 6],
  ['story=two-nodes-fail', 7],
] as const) {
  test(`still view: the app takes over ${told} in place, at the reader’s step, focus kept, no layout shift`, async ({ page }) => {
    const release = await holdWasm(page);
    await page.goto(`./?${told}&step=2&autoplay=0`, { waitUntil: 'commit' });
    const next = playback(page).getByRole('button', { name: 'Next step', exact: true });
    await next.click();
    await expect(narration(page).getByText(`Step 3 of ${count}`, { exact: true })).toBeVisible();
    await expect(next).toBeFocused();
    await page.evaluate(() => {
      (window as unknown as { shifts: number }).shifts = 0;
      new PerformanceObserver((list) => {
        // Every shift from here on, input or not: the reader's click is already answered.
        for (const e of list.getEntries() as unknown as { value: number }[]) {
          (window as unknown as { shifts: number }).shifts += e.value;
        }
      }).observe({ type: 'layout-shift' });
    });
    release();
    await expect(page.locator('main[data-still]')).toHaveCount(0);
    await expect(page.getByRole('main')).not.toHaveAttribute('aria-busy', 'true');
    await expect(narration(page).getByText(`Step 3 of ${count}`, { exact: true })).toBeVisible();
    await expect(next).toBeFocused();
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number }).shifts);
    expect(shifts, 'layout shift while the app took over').toBeLessThanOrEqual(0.02);
  });
}
