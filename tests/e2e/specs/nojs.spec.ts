import { expect, test, type Page } from '@playwright/test';
import { CHAPTERS } from '../pages/chapters';
import { PanelsPage } from '../pages/panels';

interface Step {
  title: string;
  paragraphs: string[];
  href: string | null;
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A static page's parts, by role and name (the same markup as the app's, its links to pages). */
const staticPage = (page: Page) => {
  const narration = page.locator('section.narration');
  return {
    narration,
    title: narration.getByRole('heading', { level: 2 }),
    stepOf: narration.locator('.step-of'),
    play: narration.getByRole('link', { name: 'Play from this step' }),
    steps: page.getByRole('navigation', { name: 'Steps of this chapter' }),
    next: page.getByRole('main').getByRole('link', { name: 'Next step', exact: true }),
    previous: page.getByRole('main').getByRole('link', { name: 'Previous step', exact: true }),
    // A chapter's stage, or the fleet's.
    stage: page.getByRole('region', { name: /^(Stage|The fleet)/ }),
  };
};

test('no-JS: from index.html a reader without JavaScript reaches every step as a page, with the app’s text and links', async ({
  browser,
  baseURL,
}) => {
  // Every step of six chapters with JavaScript, then the same without: more than the default 30 s
  // on a loaded machine.
  test.setTimeout(180_000);
  // What the app narrates, step by step, with JavaScript on.
  const withJs = await browser.newContext({ baseURL });
  const app = new PanelsPage(await withJs.newPage());
  const next = app.page.getByRole('region', { name: 'Playback' }).getByRole('button', { name: 'Next step', exact: true });
  const told: { title: string; steps: Step[] }[] = [];
  for (const [i, chapter] of CHAPTERS.entries()) {
    await app.goto(`./?chapter=${chapter.id}&step=1&autoplay=0`);
    const title = squash(await app.chapterLink(i + 1).locator('.chapter-title').innerText());
    const steps: Step[] = [];
    for (let n = 1; n <= chapter.steps; n++) {
      if (n > 1) {
        await next.click();
      }
      await expect(app.stepOf).toHaveText(`Step ${n} of ${chapter.steps}`);
      steps.push({
        title: squash(await app.stepTitle.innerText()),
        paragraphs: (await app.narration.locator('.narration-body .para').allInnerTexts()).map(squash),
        href: await app.stepLink(n).getAttribute('href'),
      });
    }
    told.push({ title, steps });
  }
  app.expectNoErrors();
  await withJs.close();

  // The same story with JavaScript off: index.html says what it needs and links every chapter.
  const noJs = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await noJs.newPage();
  const p = staticPage(page);
  for (const [i, chapter] of told.entries()) {
    await page.goto('./');
    // The English line and its links (the Japanese line has its own). Found by class: Playwright's
    // text matching skips what is inside <noscript>, which a browser without JavaScript shows.
    const en = page.locator('.nojs-lang[lang="en"]');
    await expect(en).toBeVisible();
    await expect(en).toContainText('nodeline is an interactive simulation: it plays with JavaScript and WebAssembly.');
    await en.getByRole('link', { name: `Chapter ${i + 1} ${chapter.title}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/steps/${CHAPTERS[i].id}\\.en\\.1\\.html$`));
    for (const [j, step] of chapter.steps.entries()) {
      const n = j + 1;
      if (n > 1) {
        await p.next.click();
      }
      await expect(p.stepOf).toHaveText(`Step ${n} of ${chapter.steps.length}`);
      await expect(p.title).toHaveText(step.title);
      const paragraphs = (await p.narration.locator('.narration-body .para').allInnerTexts()).map(squash);
      expect(paragraphs, `chapter ${i + 1} step ${n}`).toEqual(step.paragraphs);
      // "Play from this step" opens the app where the app's own step list would.
      expect(step.href).toMatch(new RegExp(`^\\?chapter=${CHAPTERS[i].id}&step=${n}&lang=en$`));
      await expect(p.play).toHaveAttribute('href', `../${step.href}`);
      await expect(p.stage).toBeVisible();
      await expect(p.steps.getByRole('link', { name: step.title, exact: true })).toHaveAttribute('aria-current', 'step');
      await expect(p.previous).toHaveCount(n > 1 ? 1 : 0);
    }
    await expect(p.next).toHaveCount(0);
  }
  await noJs.close();
});

test('no-JS: a reader goes from index.html to another chapter’s step and reads it, then back a step', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  const p = staticPage(page);
  await page.goto('./');
  await page.locator('.nojs-lang[lang="en"]').getByRole('link', { name: 'Chapter 2 Node failure and Pod recovery', exact: true }).click();
  await expect(p.title).toHaveText('Two nodes, two heartbeats');
  await p.steps.getByRole('link', { name: 'Unreachable taints; the 300 s countdown starts', exact: true }).click();
  await expect(page).toHaveURL(/\/steps\/node-failure\.en\.4\.html$/);
  await expect(page).toHaveTitle('Unreachable taints; the 300 s countdown starts — Node failure and Pod recovery — nodeline');
  await expect(p.stepOf).toHaveText('Step 4 of 6');
  await expect(p.narration).toContainText('tolerationSeconds: 300');
  // The stage at the step's moment: node-1 NotReady with both unreachable taints.
  await expect(p.stage.getByText('unreachable:NoExecute', { exact: true }).first()).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: /^Chapter 2/ })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await p.previous.click();
  await expect(p.title).toHaveText('The grace period runs out: Unknown');
  // The same step in the other language.
  await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: '日本語' }).click();
  await expect(page).toHaveURL(/\/steps\/node-failure\.ja\.3\.html$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(p.stepOf).toHaveText('ステップ 3 / 6');
  await context.close();
});
