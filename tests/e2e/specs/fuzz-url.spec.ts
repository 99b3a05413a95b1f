import { expect, test } from '@playwright/test';
import { AppPage } from '../pages/app-page';
import { rng } from '../pages/random';

/**
 * URL fuzzing: 500 generated links (a seeded generator, so a failure names a link that fails
 * again). Each load must mount the app, show a notice exactly when some value was dropped,
 * render no injected markup, and raise no uncaught error.
 */

const MARK = 'window.__pwned=1';
/** Values that are wrong for any parameter. */
const hostile = [
  '',
  '-1',
  '-99999999999999999999',
  '99999999999999999999999',
  '1e308',
  'NaN',
  '0x10',
  'ノード',
  '🙂🙂🙂',
  'a'.repeat(10 * 1024),
  `<script>${MARK}</script>`,
  `"><img src=x onerror="${MARK}">`,
  `javascript:${MARK}`,
  '%00',
  '%E0%A4%A',
  '%',
  '../../etc/passwd',
  '{{7*7}}',
  '\u202e\u0000',
];
/** Values each parameter accepts. */
const valid: Record<string, string[]> = {
  chapter: ['registration', 'node-failure', 'kubelet-restart', 'maintenance'],
  step: ['1', '2', '3', '4'],
  autoplay: ['0', '1', 'true', 'false'],
  t: ['0s', '90s', '2m30s', '1h'],
  speed: ['0.5', '1', '2', '10', '60'],
  theme: ['light', 'dark'],
  lang: ['en', 'ja', 'ja-JP', 'EN'],
  k8s: ['1.34', '1.31'],
  embed: ['0', '1'],
  origin: ['https://docs.example', 'http://127.0.0.1:8080'],
  actions: ['kill-kubelet@1m'],
};
const keys = Object.keys(valid);

interface Case {
  url: string;
  expectNotice: boolean;
}

function generate(seed: number, count: number): Case[] {
  const r = rng(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const used = new Set<string>();
    const parts: { key: string; value: string }[] = [];
    let bad = false;
    const n = 1 + Math.floor(r() * 4);
    for (let j = 0; j < n; j++) {
      const roll = r();
      let key = pick(keys);
      if (roll < 0.12) {
        key = pick(['foo', 'Chapter', 'step[]', '<b>x</b>', 'ステップ', 'a'.repeat(300)]);
        bad = true;
      }
      if (used.has(key)) {
        continue;
      }
      used.add(key);
      let value: string;
      if (valid[key] && r() < 0.55) {
        value = pick(valid[key]);
      } else {
        value = pick(hostile);
        bad = true;
      }
      parts.push({ key, value });
    }
    // Now and then the same key twice in the query: the first wins, with a notice.
    if (parts.length > 0 && r() < 0.1) {
      parts.push({ key: parts[0].key, value: pick(hostile) });
      bad = true;
    }
    const enc = (s: string) => (r() < 0.8 ? encodeURIComponent(s) : s.replace(/[#&]/g, encodeURIComponent));
    const split = r() < 0.3 ? Math.floor(r() * (parts.length + 1)) : parts.length;
    const query = parts
      .slice(0, split)
      .map((p) => `${enc(p.key)}=${enc(p.value)}`)
      .join('&');
    const hash = parts
      .slice(split)
      .map((p) => `${enc(p.key)}=${enc(p.value)}`)
      .join('&');
    cases.push({ url: `./?${query}${hash ? `#${hash}` : ''}`, expectNotice: bad });
  }
  return cases;
}

const SHARDS = 5;
const PER_SHARD = 100;

test.describe('URL fuzzing', () => {
  for (let shard = 0; shard < SHARDS; shard++) {
    test(`500 generated links, shard ${shard + 1} of ${SHARDS}`, async ({ page }) => {
      test.setTimeout(240_000);
      const app = new AppPage(page);
      await page.addInitScript(() => {
        // An alert or a confirm would be injected script running.
        window.alert = () => ((window as unknown as { __pwned: number }).__pwned = 1);
      });
      for (const c of generate(20261202 + shard, PER_SHARD)) {
        // A fresh document each time (two links that differ only after `#` would otherwise be
        // a fragment navigation; that path has its own test below).
        await page.goto('about:blank');
        await app.goto(c.url);
        const notices = page.locator('.notices li.notice:not(.quiet)');
        if (c.expectNotice) {
          await expect(notices.first(), `a notice for ${c.url.slice(0, 200)}`).toBeVisible();
        } else {
          await expect(notices, `no notice for ${c.url.slice(0, 200)}`).toHaveCount(0);
        }
        const injected = await page.evaluate(() => ({
          pwned: (window as unknown as { __pwned?: number }).__pwned ?? 0,
          scripts: document.querySelectorAll('body script').length,
          images: document.querySelectorAll('img').length,
          bold: document.querySelectorAll('main b, .notices b').length,
        }));
        expect(injected, `injected markup for ${c.url.slice(0, 200)}`).toEqual({ pwned: 0, scripts: 0, images: 0, bold: 0 });
        // Leaving a page early aborts its favicon request: that is navigation, not an error.
        const errors = app.errors.filter((e) => !e.includes('net::ERR_ABORTED'));
        expect(errors, `errors for ${c.url.slice(0, 200)}`).toEqual([]);
        app.errors.length = 0;
      }
    });
  }

  test('changing only the fragment reads the link again', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('./?chapter=registration&autoplay=0');
    await expect(page.locator('.notices li.notice:not(.quiet)')).toHaveCount(0);
    await page.evaluate(() => {
      window.location.hash = 'step=99';
    });
    await expect(page.locator('.notices li.notice:not(.quiet)').first()).toContainText('There is no step 99');
    expect(app.errors.filter((e) => !e.includes('net::ERR_ABORTED'))).toEqual([]);
  });
});
