import { expect, test, type Page } from '@playwright/test';
import * as path from 'node:path';
import { AppPage, SCREENSHOT_DIR } from '../pages/app-page';
import { CHAPTERS } from '../pages/chapters';

/**
 * A layout for each place the page is used: wide screens (1440×900, 1280×800), a small laptop
 * (1100×760, where the parts stack), a docs column (an embed in a 700×640 frame) and a phone (390×844). At each, in every chapter (the zone
 * chapter at 150 and 1,000 nodes): Play is in the first screen, and so are the step's title and
 * the top of the stage (and on wide screens the timeline's track, which stays where it is from
 * step to step); nothing scrolls
 * sideways; every piece of text on the page, the stage's drawings included (measured as drawn:
 * font size times the drawing's scale), is at least 12 CSS px; on the phone every control of the
 * header, timeline, narration and sandbox is a 44×44 px target. Screenshots of the first screen go
 * to tests/e2e/screenshots/layout-*.png.
 */

const pages = [
  ...CHAPTERS.map((c) => ({ chapter: c.id, steps: c.steps, query: '' })),
  { chapter: 'zone-outage', steps: 6, query: '&nodes=1000' },
];

// Between 961 and 1,269 px the parts stack in one column (two would shrink the stage's text under
// 12 px): a small laptop checks it on the two tallest drawings and the fleet.
const stacked = pages.filter((p) => ['node-failure', 'maintenance', 'zone-outage'].includes(p.chapter) && !p.query);

const sizes = [
  { name: 'wide-1440', width: 1440, height: 900, embed: false, phone: false, pages },
  { name: 'wide-1280', width: 1280, height: 800, embed: false, phone: false, pages },
  { name: 'laptop-1100', width: 1100, height: 760, embed: false, phone: false, pages: stacked },
  { name: 'embed-700', width: 700, height: 640, embed: true, phone: false, pages },
  { name: 'phone-390', width: 390, height: 844, embed: false, phone: true, pages },
] as const;

/** What the first screen shows and what is too small, measured in the page at scroll 0. */
async function measure(page: Page, phone: boolean) {
  return page.evaluate((phone) => {
    const vh = window.innerHeight;
    const inFirstScreen = (el: Element | null) => {
      if (!el) return false;
      const r = el.getBoundingClientRect();
      return r.height > 0 && r.top >= 0 && r.bottom <= vh + 0.5;
    };
    const timeline = document.querySelector('section.timeline');
    const play = timeline?.querySelector('button.tl-play') ?? null;
    // Text: every visible text node's font size, and every SVG text's as drawn.
    const small: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !(node.textContent ?? '').trim() || el.closest('svg, .sr-only, [hidden], dialog:not([open])')) continue;
      const rects = [...(() => { const r = document.createRange(); r.selectNodeContents(node); return r.getClientRects(); })()];
      if (!rects.some((r) => r.width > 0)) continue;
      const size = parseFloat(getComputedStyle(el).fontSize);
      if (size < 11.95) small.push(`${el.tagName.toLowerCase()}.${el.className} "${node.textContent!.trim().slice(0, 24)}": ${size.toFixed(1)} px`);
    }
    for (const svg of document.querySelectorAll<SVGSVGElement>('svg[viewBox]')) {
      const box = svg.viewBox.baseVal;
      if (!box || box.width === 0) continue;
      const scale = svg.getBoundingClientRect().width / box.width;
      for (const t of svg.querySelectorAll('text')) {
        if (t.getBoundingClientRect().width === 0 || !(t.textContent ?? '').trim()) continue;
        const size = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (size < 11.95) small.push(`${svg.getAttribute('class')} text.${t.getAttribute('class')} "${t.textContent!.trim().slice(0, 24)}": ${size.toFixed(1)} px`);
      }
    }
    // Targets (the phone): every visible control of the header, timeline, narration and sandbox
    // (a checkbox counts as its label; a term is a word in a sentence, as WCAG leaves it out).
    const targets: string[] = [];
    if (phone) {
      for (const root of document.querySelectorAll('header, .timeline, section.narration, .controls')) {
        for (const el of root.querySelectorAll<HTMLElement>('a[href], button, select, input, [role="tab"], [role="slider"]')) {
          if (el.classList.contains('term')) continue;
          const box = el instanceof HTMLInputElement && el.type === 'checkbox' ? (el.closest('label') ?? el) : el;
          const r = box.getBoundingClientRect();
          if (r.width === 0 || r.height === 0) continue;
          if (r.width < 43.5 || r.height < 43.5) {
            targets.push(`${el.tagName.toLowerCase()} "${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 30)}": ${Math.round(r.width)}×${Math.round(r.height)}`);
          }
        }
      }
    }
    return {
      play: inFirstScreen(play),
      track: inFirstScreen(timeline?.querySelector('.tl-track') ?? null),
      timelineTop: timeline ? Math.round(timeline.getBoundingClientRect().top) : -1,
      title: inFirstScreen(document.getElementById('narration-title')),
      stage: (() => {
        const r = document.querySelector('section.stage')?.getBoundingClientRect();
        return !!r && r.top >= 0 && r.top + Math.min(r.height, 160) <= vh;
      })(),
      sideways: document.documentElement.scrollWidth - window.innerWidth,
      small: [...new Set(small)],
      targets,
    };
  }, phone);
}

for (const size of sizes) {
  test.describe(`layout at ${size.name} (${size.width}×${size.height})`, () => {
    test.use({ viewport: { width: size.width, height: size.height }, isMobile: size.phone, hasTouch: size.phone });

    for (const p of size.pages) {
      const what = `${p.chapter}${p.query}`;
      test(`${what}: Play and the title in the first screen, nothing sideways, text ≥ 12 px${size.phone ? ', 44 px targets' : ''}`, async ({ page }) => {
        test.setTimeout(120_000);
        const app = new AppPage(page);
        const base = `./?chapter=${p.chapter}${p.query}&autoplay=0${size.embed ? '&embed=1' : ''}`;
        await app.goto(`${base}&step=1`);
        const stepOf = page.locator('section.narration .step-of');
        await expect(stepOf).toHaveText(new RegExp(`^Step 1 of ${p.steps}`));
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `layout-${size.name}-${p.chapter}${p.query ? '-1000' : ''}.png`) });
        const first = await measure(page, size.phone);
        expect(first.play, 'Play in the first screen').toBe(true);
        expect(first.title, "the step's title in the first screen").toBe(true);
        expect(first.stage, 'the stage starts in the first screen').toBe(true);
        if (!size.embed && !size.phone) expect(first.track, "the timeline's track in the first screen").toBe(true);

        // Every step, as a link opens it: the same checks; on wide screens the timeline is where
        // it was at step 1.
        for (let step = 1; step <= p.steps; step++) {
          if (step > 1) {
            await app.goto(`${base}&step=${step}`);
            await expect(stepOf).toHaveText(new RegExp(`^Step ${step} of ${p.steps}`));
          }
          const m = step === 1 ? first : await measure(page, size.phone);
          expect(m.play, `step ${step}: Play in the first screen`).toBe(true);
          expect(m.sideways, `step ${step}: nothing scrolls sideways`).toBeLessThanOrEqual(0);
          expect(m.small, `step ${step}: text under 12 px`).toEqual([]);
          expect(m.targets, `step ${step}: targets under 44 px`).toEqual([]);
          if (!size.embed && !size.phone) expect(m.timelineTop, `step ${step}: the timeline stays put`).toBe(first.timelineTop);
        }
        app.expectNoErrors();
      });
    }
  });
}
