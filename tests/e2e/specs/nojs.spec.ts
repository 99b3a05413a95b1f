import { expect, test } from '@playwright/test';
import { PanelsPage } from '../pages/panels';

interface Step {
  title: string;
  paragraphs: string[];
  href: string | null;
}

const CHAPTERS = ['registration', 'node-failure', 'kubelet-restart', 'zone-outage', 'maintenance', 'node-goes-away'] as const;

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

test('no-JS: with JavaScript off the page has every step’s text and its “Play from step N” link, as the app tells it', async ({
  browser,
  baseURL,
}) => {
  // Every step of six chapters with JavaScript, then the same without: more than the default 30 s
  // on a loaded machine.
  test.setTimeout(120_000);
  // What the app narrates, step by step, with JavaScript on.
  const withJs = await browser.newContext({ baseURL });
  const app = new PanelsPage(await withJs.newPage());
  const next = app.page.getByRole('region', { name: 'Playback' }).getByRole('button', { name: 'Next step', exact: true });
  const told: { title: string; steps: Step[] }[] = [];
  for (const [i, id] of CHAPTERS.entries()) {
    await app.goto(`./?chapter=${id}&step=1&autoplay=0`);
    const title = squash(await app.chapterLink(i + 1).innerText());
    const count = await app.stepList.getByRole('listitem').count();
    const steps: Step[] = [];
    for (let n = 1; n <= count; n++) {
      if (n > 1) {
        await next.click();
      }
      await expect(app.stepOf).toHaveText(`Step ${n} of ${count}`);
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

  // The same page with JavaScript off.
  const noJs = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await noJs.newPage();
  await page.goto('./');
  const story = page.locator('section[lang="en"]');
  await expect(story.getByRole('heading', { level: 1, name: 'nodeline' })).toBeVisible();
  await expect(story).toContainText('needs JavaScript and WebAssembly');
  for (const [i, chapter] of told.entries()) {
    const region = story.getByRole('region', { name: chapter.title });
    await expect(region.getByRole('heading', { level: 2 })).toHaveText(chapter.title);
    const items = region.getByRole('listitem');
    await expect(items).toHaveCount(chapter.steps.length);
    for (const [j, step] of chapter.steps.entries()) {
      const n = j + 1;
      const item = items.nth(j);
      await expect(item.getByRole('heading', { level: 3 })).toHaveText(step.title);
      const paragraphs = (await item.locator('.step-body .para').allInnerTexts()).map(squash);
      expect(paragraphs, `chapter ${i + 1} step ${n}`).toEqual(step.paragraphs);
      const link = item.getByRole('link', { name: `Play from step ${n}: ${step.title}`, exact: true });
      await expect(link).toBeVisible();
      expect(step.href).toMatch(new RegExp(`^\\?chapter=${CHAPTERS[i]}&step=${n}&lang=en$`));
      await expect(link).toHaveAttribute('href', step.href as string);
    }
  }
  await noJs.close();
});
