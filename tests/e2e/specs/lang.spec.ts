import { expect, test } from '@playwright/test';
import { AppPage, parseClock } from '../pages/app-page';

/**
 * The Japanese edition: chosen by `?lang=ja` or the browser's languages, switched in place
 * without losing the playhead, kept in the URL; Kubernetes identifiers stay as Kubernetes prints
 * them. Locators use the Japanese accessible names the reader's screen reader would announce.
 */

const ja = {
  play: '再生',
  pause: '一時停止',
  clock: 'シミュレーション時刻',
  sandbox: 'サンドボックス',
  killKubelet: 'kubelet を停止',
  inspector: 'インスペクター',
  languageNav: '言語',
  steps: 'この章のステップ',
};

test.describe('Japanese edition', () => {
  test('?lang=ja shows Japanese narration and controls, and Kubernetes output unchanged', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('./?chapter=node-failure&step=4&autoplay=0&lang=ja');

    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page).toHaveTitle('Node の障害と Pod の復旧 — nodeline');
    const narration = page.locator('section.narration');
    await expect(narration.getByRole('heading', { level: 2 })).toHaveText('unreachable の taint、300 秒のカウントダウン開始');
    // The prose is Japanese, the identifiers are exactly Kubernetes'.
    await expect(narration).toContainText('コントローラー');
    await expect(narration.locator('code', { hasText: 'node.kubernetes.io/unreachable:NoSchedule' })).toBeVisible();

    await expect(page.getByRole('button', { name: ja.play, exact: true })).toBeVisible();
    const sandbox = page.getByRole('region', { name: ja.sandbox });
    await expect(sandbox.getByRole('button', { name: ja.killKubelet, exact: true })).toBeVisible();
    await expect(page.getByRole('navigation', { name: ja.steps })).toBeVisible();

    // The inspector's Kubernetes fields are not translated.
    const inspector = page.getByRole('region', { name: ja.inspector });
    const ready = inspector.locator('table.conditions tbody tr[data-type="Ready"] td');
    await expect(ready.nth(0)).toHaveText('Unknown');
    await expect(ready.nth(3)).toHaveText('NodeStatusUnknown');
    await expect(ready.nth(4)).toHaveText('Kubelet stopped posting node status.');
    await expect(inspector.getByRole('columnheader', { name: 'LastHeartbeatTime' })).toBeVisible();
    app.expectNoErrors();
  });

  test('the kubectl panel prints in Japanese exactly what it prints in English', async ({ page }) => {
    // Registration step 6 (T+1m30s): the same moment the kubectl spec checks in English, where
    // tests/it/kubectl_parity.rs holds the text against the real kubectl.
    const transcript = async (lang: string): Promise<string> => {
      const app = new AppPage(page);
      await app.goto(`./?chapter=registration&step=6&autoplay=0&lang=${lang}`);
      const inspector = page.locator('.inspector');
      await inspector.getByRole('tab', { name: 'kubectl', exact: true }).click();
      const prompt = inspector.getByRole('textbox', { name: lang === 'ja' ? 'kubectl コマンド' : 'kubectl command' });
      await prompt.fill('kubectl get nodes');
      await prompt.press('Enter');
      const out = inspector.locator('pre.kubectl-out');
      await expect(out).toContainText('node-1');
      app.expectNoErrors();
      return out.innerText();
    };
    const english = await transcript('en');
    expect(english).toBe('$ kubectl get nodes\nNAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   90s   v1.34.1\n');
    expect(await transcript('ja')).toBe(english);
  });

  test('the browser language picks Japanese when the link does not say', async ({ browser }) => {
    const context = await browser.newContext({ locale: 'ja-JP' });
    const page = await context.newPage();
    const app = new AppPage(page);
    await app.goto('./');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.getByRole('button', { name: ja.play, exact: true })).toBeVisible();
    // An explicit ?lang=en wins over the browser.
    await app.goto('./?lang=en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
    app.expectNoErrors();
    await context.close();
  });

  test('switching language mid-chapter keeps chapter, step and time, and the URL keeps the choice', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('./?chapter=node-failure&step=4&autoplay=0');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    const before = parseClock(await app.clock.innerText());
    expect(before).toBeGreaterThan(0);
    await expect(page.locator('section.narration .step-of')).toHaveText('Step 4 of 6');

    await page.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: '日本語' }).click();

    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    await expect(page.locator('section.narration .step-of')).toHaveText('ステップ 4 / 6');
    // The live region says where the reader is, in the new language (never the old sentence).
    await expect(page.getByRole('status')).toHaveText(/^ステップ 4 \/ 6: /);
    expect(parseClock(await page.getByLabel(ja.clock, { exact: true }).innerText())).toBe(before);
    const link = page.getByRole('navigation', { name: ja.languageNav }).getByRole('link', { name: '日本語' });
    await expect(link).toHaveAttribute('aria-current', 'true');
    await expect(page).toHaveURL(/[?&]lang=ja(&|$)/);
    await expect(page).toHaveURL(/[?&]chapter=node-failure(&|$)/);

    // The shared link opens in Japanese at the same moment (the still view stands, dimmed, until
    // the app that shows the moment arrives).
    await page.reload();
    await expect(app.main).not.toHaveAttribute('aria-busy', 'true');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    expect(parseClock(await page.getByLabel(ja.clock, { exact: true }).innerText())).toBe(before);

    // And back to English, still at the same moment.
    await page.getByRole('navigation', { name: ja.languageNav }).getByRole('link', { name: 'English' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(app.status).toHaveText(/^Step 4 of 6: /);
    expect(parseClock(await app.clock.innerText())).toBe(before);
    app.expectNoErrors();
  });

  for (const [width, height] of [
    [1920, 1080],
    [390, 844],
  ] as const) {
    test(`layout holds in both languages at ${width}px (screenshots)`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      const app = new AppPage(page);
      for (const lang of ['en', 'ja']) {
        await app.goto(`./?chapter=node-failure&step=4&autoplay=0&lang=${lang}`);
        await expect(page.locator('html')).toHaveAttribute('lang', lang);
        // Nothing sticks out sideways: long Japanese lines wrap, identifiers break where they can.
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect(overflow, `horizontal overflow in ${lang} at ${width}px`).toBeLessThanOrEqual(0);
        await app.screenshot(`lang-${lang}-${width}`);
      }
      app.expectNoErrors();
    });
  }

  test('without JavaScript the static pages tell the story in Japanese too', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const page = await context.newPage();
    await page.goto('./');
    const ja = page.locator('.nojs-lang[lang="ja"]');
    await expect(ja).toContainText('JavaScript と WebAssembly で動きます');
    await ja.getByRole('link', { name: '第 2 章 Node の障害と Pod の復旧', exact: true }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
    const steps = page.getByRole('navigation', { name: 'この章のステップ' });
    await steps.getByRole('link', { name: /^unreachable の taint/ }).click();
    const narration = page.locator('section.narration');
    await expect(narration.getByRole('heading', { level: 2 })).toHaveText('unreachable の taint、300 秒のカウントダウン開始');
    await expect(narration.getByRole('link', { name: 'このステップから再生' })).toHaveAttribute(
      'href',
      '../?chapter=node-failure&step=4&lang=ja',
    );
    // Kubernetes identifiers are as Kubernetes prints them.
    await expect(narration.locator('code', { hasText: 'tolerationSeconds: 300' })).toBeVisible();
    await context.close();
  });
});
