import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import * as path from 'node:path';
import { SCREENSHOT_DIR } from '../pages/app-page';
import { PanelsPage } from '../pages/panels';
import { StagePage } from '../pages/stage';

/**
 * Phones (issue 18): at 390×844 and 360×800 the stage is laid out for the width (one column, the
 * API server across the control plane's foot), its smallest text is at least 12 CSS px, packets
 * still move along their arrows, the timeline, narration, sandbox and header controls are thumb
 * targets of at least 44×44 px, nothing scrolls sideways, and axe finds nothing, on every step of
 * every chapter, in the sandbox, the inspector and the embed. Screenshots go to
 * tests/e2e/screenshots/narrow-*.png.
 */

const chapters = [
  { id: 'registration', steps: 6 },
  { id: 'node-failure', steps: 6 },
  { id: 'kubelet-restart', steps: 4 },
  { id: 'maintenance', steps: 7 },
];

const phones = [
  { width: 390, height: 844 },
  { width: 360, height: 800 },
] as const;

/** The page is as wide as the window: nothing scrolls sideways. */
async function expectNoSidewaysScroll(page: Page, what: string): Promise<void> {
  const [scroll, inner] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(scroll, `${what}: the page is ${scroll} px wide in a ${inner} px window`).toBeLessThanOrEqual(inner);
}

/** The smallest rendered font size of the stage's SVG text, in CSS px, and the layout class. */
async function stageText(page: Page): Promise<{ smallest: number; narrow: boolean; texts: number }> {
  return page.locator('svg.stage-svg').evaluate((svg: SVGSVGElement) => {
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    let smallest = Infinity;
    let texts = 0;
    for (const t of svg.querySelectorAll('text')) {
      if (t.getBoundingClientRect().width === 0) continue;
      texts++;
      smallest = Math.min(smallest, parseFloat(getComputedStyle(t).fontSize) * scale);
    }
    return { smallest, narrow: svg.classList.contains('narrow'), texts };
  });
}

/**
 * Every visible control of the header, the timeline, the narration and the sandbox, and the
 * inspector's tabs, that is smaller than 44×44 px. Two kinds are left out, as WCAG's target size
 * criterion leaves them out: the narration's terms (words inside a sentence) and the timeline's
 * step markers (each has an equivalent 44 px control: Previous/Next step and the step list). A
 * checkbox counts as its label.
 */
async function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const scopes = ['header', '.timeline', 'section.narration', '.controls', '.inspector [role="tablist"]'];
    const out: string[] = [];
    for (const scope of scopes) {
      for (const root of document.querySelectorAll(scope)) {
        for (const el of root.querySelectorAll<HTMLElement>('a[href], button, select, input, [role="tab"], [role="slider"]')) {
          if (el.classList.contains('term') || el.classList.contains('tl-marker')) continue;
          const box = el instanceof HTMLInputElement && el.type === 'checkbox' ? (el.closest('label') ?? el) : el;
          const r = box.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          if (r.width < 43.5 || r.height < 43.5) {
            const name = el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30) ?? el.tagName;
            out.push(`${scope} ${el.tagName.toLowerCase()} "${name}": ${Math.round(r.width)}×${Math.round(r.height)}`);
          }
        }
      }
    }
    return out;
  });
}

async function expectAxeClean(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
  expect(summary, `axe: ${what}`).toEqual([]);
}

for (const { width, height } of phones) {
  const size = `${width}×${height}`;
  test.describe(`a phone, ${size}`, () => {
    test.use({ viewport: { width, height }, isMobile: true, hasTouch: true });

    for (const { id, steps } of chapters) {
      test(`${id}: every step reads without zooming, no sideways scroll, thumb-sized controls, axe clean`, async ({
        page,
      }) => {
        test.setTimeout(120_000);
        const app = new PanelsPage(page);
        for (let step = 1; step <= steps; step++) {
          await app.goto(`./?chapter=${id}&step=${step}&autoplay=0`);
          await expect(app.stepOf).toHaveText(new RegExp(`^Step ${step} of ${steps}`));
          const text = await stageText(page);
          expect(text.narrow, `step ${step}: the narrow stage`).toBe(true);
          expect(text.texts).toBeGreaterThan(10);
          expect(text.smallest, `step ${step}: the stage's smallest text`).toBeGreaterThanOrEqual(11.95);
          await expectNoSidewaysScroll(page, `${id} step ${step}`);
          expect(await smallTargets(page), `${id} step ${step}`).toEqual([]);
          if (step === 1 || step === steps) await expectAxeClean(page, `${id} step ${step} at ${size}`);
          await page.locator('section.stage').screenshot({ path: path.join(SCREENSHOT_DIR, `narrow-${width}-${id}-${step}-stage.png`) });
        }
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `narrow-${width}-${id}-page.png`) });
        app.expectNoErrors();
      });
    }

    test('packets move along their arrows while playing', async ({ page }) => {
      const stage = new StagePage(page);
      const app = new PanelsPage(page);
      await app.goto('./?chapter=node-failure&step=1&autoplay=0&speed=2');
      await app.playButton.click();
      await expect(stage.packets.first()).toBeVisible({ timeout: 20_000 });
      // Where the packets on screen are, a moment apart: somewhere else along their arrows.
      const at = () =>
        stage.packets.evaluateAll((gs) =>
          gs
            .map((g) => g.getBoundingClientRect())
            .filter((r) => r.width > 0)
            .map((r) => `${Math.round(r.x)},${Math.round(r.y)}`)
            .join(' '),
        );
      // Packets come and go: take the first moment some are on screen, then wait for packets
      // somewhere else (not for none at all).
      let first = '';
      await expect.poll(async () => (first = await at()), { timeout: 20_000 }).not.toBe('');
      await expect
        .poll(async () => {
          const now = await at();
          return now !== '' && now !== first;
        }, { timeout: 10_000 })
        .toBe(true);
      await app.pauseButton.click();
      app.expectNoErrors();
    });

    test('the sandbox and the inspector work with a thumb', async ({ page }) => {
      test.setTimeout(90_000);
      const app = new PanelsPage(page);
      await app.goto('./?chapter=registration&step=6&autoplay=0');
      await app.action('Kill kubelet').tap();
      await expect(app.action('Kill kubelet')).toHaveAttribute('aria-disabled', 'true');
      await expect(app.action('Start kubelet')).not.toHaveAttribute('aria-disabled', 'true');
      await app.tab('Node').tap();
      await expect(app.tab('Node')).toHaveAttribute('aria-selected', 'true');
      for (const name of ['Lease', 'Pods', 'Events'] as const) {
        await app.tab(name).tap();
        await expect(app.tab(name)).toHaveAttribute('aria-selected', 'true');
        await expect(app.openPanel).toBeVisible();
        await expectNoSidewaysScroll(page, `inspector ${name}`);
      }
      const tabs = app.inspector.getByRole('tab');
      const count = await tabs.count();
      for (let i = 0; i < count; i++) {
        await tabs.nth(i).tap();
        await expect(tabs.nth(i)).toHaveAttribute('aria-selected', 'true');
        await expectNoSidewaysScroll(page, `inspector tab ${i}`);
      }
      expect(await smallTargets(page)).toEqual([]);
      await expectAxeClean(page, `sandbox and inspector at ${size}`);
      await app.inspector.screenshot({ path: path.join(SCREENSHOT_DIR, `narrow-${width}-inspector.png`) });
      await app.sandbox.screenshot({ path: path.join(SCREENSHOT_DIR, `narrow-${width}-sandbox.png`) });
      app.expectNoErrors();
    });

    test('the embed', async ({ page }) => {
      const app = new PanelsPage(page);
      await app.goto('./?embed=1&chapter=node-failure&step=4&autoplay=0');
      await expect(app.stepOf).toHaveText(/^Step 4 of 6/);
      const text = await stageText(page);
      expect(text.narrow).toBe(true);
      expect(text.smallest).toBeGreaterThanOrEqual(11.95);
      await expectNoSidewaysScroll(page, 'embed');
      expect(await smallTargets(page)).toEqual([]);
      await expectAxeClean(page, `embed at ${size}`);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `narrow-${width}-embed.png`), fullPage: true });
      app.expectNoErrors();
    });
  });
}

/**
 * The header's words that a line break cuts in two (a Latin word, or a kana or kanji run the
 * browser would not break on its own: only words of letters, digits and dots are checked).
 */
async function brokenWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.querySelector('header.site-header')!, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      for (const m of text.matchAll(/[A-Za-z0-9.]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index!);
        range.setEnd(node, m.index! + m[0].length);
        const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) out.push(`"${m[0]}" on ${lines.size} lines`);
      }
    }
    return out;
  });
}

test.describe('the header on a phone, 360 to 767 px wide', () => {
  for (const lang of ['en', 'ja']) {
    test(`${lang}: words stay whole, thumb-sized controls, nothing scrolls sideways`, async ({ page }) => {
      const app = new PanelsPage(page);
      for (const width of [360, 390, 412, 480, 600, 767]) {
        await page.setViewportSize({ width, height: 800 });
        await app.goto(`./?chapter=registration&step=1&autoplay=0&lang=${lang}`);
        expect(await brokenWords(page), `${lang} at ${width} px`).toEqual([]);
        expect(await smallTargets(page), `${lang} at ${width} px`).toEqual([]);
        await expectNoSidewaysScroll(page, `${lang} at ${width} px`);
      }
      app.expectNoErrors();
    });
  }
});

test.describe('the header on a phone is short', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  for (const lang of ['en', 'ja']) {
    test(`${lang}: three rows, the chapters one row scrolled to the current chapter`, async ({ page }) => {
      const app = new PanelsPage(page);
      await app.goto(`./?chapter=node-goes-away&step=1&autoplay=0&lang=${lang}`);
      const header = page.locator('header.site-header');
      const box = (await header.boundingBox())!;
      expect(box.height, 'the header takes under a quarter of the screen').toBeLessThan(844 / 4);
      const nav = header.getByRole('navigation').first();
      const current = nav.locator('a[aria-current="page"]');
      await expect(current).toContainText(lang === 'en' ? 'A node goes away' : '6');
      // The current chapter (the last) is scrolled into the row's view; every chapter, and every
      // story of the site after them, is in the row.
      await expect(current).toBeInViewport({ ratio: 1 });
      await expect(nav.getByRole('link', { name: lang === 'en' ? /^Chapter \d/ : /^第 \d 章/ })).toHaveCount(6);
      // As many as the site has: the list the build wrote into the page.
      const siteStories = await page.locator('#nodeline-stories a').count();
      expect(siteStories).toBeGreaterThanOrEqual(4);
      await expect(nav.getByRole('link', { name: lang === 'en' ? /^Story / : /^ストーリー / })).toHaveCount(siteStories);
      const tops = await nav.getByRole('link').evaluateAll((links) => links.map((l) => Math.round(l.getBoundingClientRect().top)));
      expect(new Set(tops).size, 'one row').toBe(1);
      app.expectNoErrors();
    });
  }
});
