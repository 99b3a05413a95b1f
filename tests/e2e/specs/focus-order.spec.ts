import { expect, test } from '@playwright/test';
import { AppPage } from '../pages/app-page';

/**
 * Keyboard alone: Tab walks every control in reading order (header, then the stage, timeline and
 * sandbox, then narration and inspector), and each focused control shows a visible focus ring.
 */
test('Tab reaches every control in a sensible order, each with a visible focus ring', async ({ page }) => {
  test.setTimeout(60_000);
  const app = new AppPage(page);
  await app.goto('./?chapter=node-failure&step=2&autoplay=0');

  const seen: { label: string; ring: boolean }[] = [];
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return null;
      const style = getComputedStyle(el);
      const ring =
        (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      const name = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 60);
      return { label: `${el.getAttribute('role') ?? el.tagName.toLowerCase()}:${name}`, ring };
    });
    if (!focused) break;
    if (seen.length > 0 && focused.label === seen[0].label) break;
    seen.push(focused);
  }
  const labels = seen.map((s) => s.label);
  const at = (pattern: RegExp) => {
    const i = labels.findIndex((l) => pattern.test(l));
    expect(i, `${pattern} is reachable by Tab in ${JSON.stringify(labels)}`).toBeGreaterThanOrEqual(0);
    return i;
  };
  const order = [
    at(/^a:Skip to the story/),
    at(/^a:Chapter 1/),
    at(/^a:日本語/),
    at(/^button:Play$/),
    at(/^slider:/),
    at(/^button:Kill kubelet$/),
    at(/^a:▶?\s*Play from this step/),
    at(/^tab:Node$/),
  ];
  expect([...order].sort((a, b) => a - b), `reading order of ${JSON.stringify(labels)}`).toEqual(order);
  const invisible = seen.filter((s) => !s.ring).map((s) => s.label);
  expect(invisible, 'controls without a visible focus ring').toEqual([]);
  app.expectNoErrors();
});
