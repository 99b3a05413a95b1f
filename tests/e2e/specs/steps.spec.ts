import { expect, test, type Page } from '@playwright/test';
import { CHAPTERS } from '../pages/chapters';
import { PanelsPage } from '../pages/panels';
import { anyNodeCard, nodeCardName, stepFacts, type Fact, type StepFacts } from '../pages/step-facts';

/**
 * Every step of every chapter, opened paused (`&step=N&autoplay=0`), shows its moment: what its
 * title names is on the stage and in the inspector, as `pages/step-facts.json` says, in both
 * languages and at both Kubernetes profiles. The narration and the timeline's marks say the same
 * step.
 */

const MASTER = {
  en: 'Master disruption mode',
  ja: 'マスター障害モード',
};

const INSPECTOR = {
  en: 'Inspector',
  ja: 'インスペクター',
};

async function checkFact(page: Page, app: PanelsPage, f: Fact): Promise<void> {
  const stage = page.locator('section.stage');
  if (f.node !== undefined) {
    if (f.exists === false) {
      await expect(stage.getByRole('group', { name: anyNodeCard(f.node) })).toHaveCount(0);
    } else {
      await expect(stage.getByRole('group', { name: nodeCardName(f) })).toHaveCount(1);
    }
  }
  if (f.kubelet !== undefined) {
    const chip = stage.locator(`g.machine[data-node="${f.kubelet}"] g.chip.kubelet`);
    await expect(chip).toHaveClass(f.running ? /\bok\b/ : /\bdown\b/);
  }
  if (f.pod !== undefined && f.stage !== false) {
    const rows = stage.locator('g.pod').filter({ hasText: f.pod.endsWith('-') ? new RegExp(`^${f.pod}`) : f.pod });
    if (f.exists === false) {
      await expect(rows).toHaveCount(0);
    } else {
      const detail = new RegExp(`${f.status ?? ''}.* · ${f.on || '—'}$`);
      await expect(rows.filter({ hasText: detail })).not.toHaveCount(0);
    }
  }
}

async function checkStep(page: Page, app: PanelsPage, s: StepFacts, lang: 'en' | 'ja'): Promise<void> {
  for (const f of s.facts) {
    if (f.zone !== undefined) {
      await expect(page.locator(`.fleet-svg g.zone[data-zone="${f.zone}"] .zone-state`)).toHaveText(f.state!);
    } else {
      await checkFact(page, app, f);
    }
  }
  if (s.master !== undefined) {
    const desc = page.locator('#fleet-desc');
    if (s.master) {
      await expect(desc).toContainText(MASTER[lang]);
    } else {
      await expect(desc).not.toContainText(MASTER[lang]);
    }
  }
  if (s.inspector !== undefined) {
    const node = s.facts.find((f) => f.node === s.inspector && f.exists !== false);
    const inspector = page.getByRole('region', { name: INSPECTOR[lang], exact: true });
    await expect(inspector.locator('table.get-nodes tbody td').first()).toHaveText(s.inspector);
    if (node?.status) {
      await expect(inspector.locator('table.get-nodes tbody td[data-col="status"]')).toHaveText(node.status);
    }
    if (node?.ready) {
      await expect(inspector.locator('table.conditions tbody tr[data-type="Ready"] td').nth(0)).toHaveText(node.ready);
    }
  }
}

for (const chapter of CHAPTERS) {
  for (const [lang, k8s] of [
    ['en', ''],
    ['ja', ''],
    ['en', '1.31'],
    ['ja', '1.31'],
  ] as const) {
    test(`${chapter.id}, ${lang}${k8s ? `, Kubernetes ${k8s}` : ''}: every step paused shows its moment`, async ({ page }) => {
      test.slow();
      const app = new PanelsPage(page);
      const steps = stepFacts(chapter.id);
      expect(steps).toHaveLength(chapter.steps);
      for (const s of steps) {
        await app.goto(`./?chapter=${chapter.id}&step=${s.step}&autoplay=0&lang=${lang}${k8s ? `&k8s=${k8s}` : ''}`);
        await expect(app.main.getByRole('button', { name: lang === 'en' ? 'Play' : '再生', exact: true })).toBeVisible();
        // The timeline's mark of the step is the current one, and the clock is at its moment.
        const mark = page.locator('.tl-marker[aria-current="step"]');
        await expect(mark).toHaveText(String(s.step));
        await expect(page.getByRole('timer')).toHaveText((await mark.getAttribute('data-clock'))!);
        await test.step(`step ${s.step}`, () => checkStep(page, app, s, lang));
      }
      app.expectNoErrors();
    });
  }
}

test('a chapter link without a step lands on step 1\'s moment, not T+00:00', async ({ page }) => {
  const app = new PanelsPage(page);
  // Kubelet restart: step 1 says the kubelet stopped two minutes ago and the Node is NotReady.
  await app.goto('./?chapter=kubelet-restart');
  await expect(app.playButton).toBeVisible();
  await expect(app.clock).toHaveText('T+04:00');
  await expect(app.stepOf).toHaveText('Step 1 of 4');
  await checkStep(page, app, stepFacts('kubelet-restart')[0], 'en');
  app.expectNoErrors();
});

test('playing from a step starts at its lead-in; next and previous land on moments', async ({ page }) => {
  const app = new PanelsPage(page);
  // Paused at step 3's moment: node-1 is Unknown.
  await app.goto('./?chapter=node-failure&step=3&autoplay=0&speed=0.1');
  const moment = (await page.locator('.tl-marker[aria-current="step"]').getAttribute('data-clock'))!;
  await expect(app.clock).toHaveText(moment);
  await expect(app.stepOf).toHaveText('Step 3 of 6');
  // Next step, paused: step 4's moment, its taints on the stage.
  await page.getByRole('button', { name: 'Next step', exact: true }).click();
  await expect(app.stepOf).toHaveText('Step 4 of 6');
  await checkStep(page, app, stepFacts('node-failure')[3], 'en');
  // Previous step: back to step 3's moment (the narration does not fall back to step 2).
  await page.getByRole('button', { name: 'Previous step', exact: true }).click();
  await expect(app.clock).toHaveText(moment);
  await expect(app.stepOf).toHaveText('Step 3 of 6');
  // A link that plays from step 3 starts before its moment: node-1 is still Ready, and the
  // narration already tells step 3.
  await app.goto('./?chapter=node-failure&step=3&speed=0.1');
  await expect(app.pauseButton).toBeVisible();
  await expect(app.stepOf).toHaveText('Step 3 of 6');
  await expect(page.locator('section.stage').getByRole('group', { name: /^Node node-1: Ready;/ })).toHaveCount(1);
  await expect(page.locator('section.stage').getByRole('group', { name: /^Node node-1: NotReady;/ })).toHaveCount(1, {
    timeout: 60_000,
  });
  app.expectNoErrors();
});
