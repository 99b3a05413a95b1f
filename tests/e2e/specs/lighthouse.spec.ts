import { expect, test } from '@playwright/test';

/**
 * Lighthouse (the npm package, on Debian's Chromium) on the built site: accessibility 100,
 * best practices and SEO at least 95. Its own Chromium, launched by chrome-launcher.
 */
test.describe('Lighthouse', () => {
  test('accessibility 100, best practices and SEO at least 95', async ({ baseURL }) => {
    test.setTimeout(180_000);
    const { default: lighthouse } = await import('lighthouse');
    const chromeLauncher = await import('chrome-launcher');
    const chrome = await chromeLauncher.launch({
      chromePath: '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    try {
      const url = new URL('./?chapter=node-failure&step=2&autoplay=0', baseURL).toString();
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['accessibility', 'best-practices', 'seo'],
        formFactor: 'desktop',
        screenEmulation: { mobile: false, width: 1440, height: 900, deviceScaleFactor: 1, disabled: false },
      });
      expect(result, 'lighthouse returned a result').toBeTruthy();
      const lhr = result!.lhr;
      const scores = Object.fromEntries(
        Object.entries(lhr.categories).map(([id, c]) => [id, Math.round((c.score ?? 0) * 100)]),
      );
      const failing = Object.values(lhr.audits)
        .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
        .map((a) => `${a.id}: ${a.title}`);
      console.log(`Lighthouse ${lhr.lighthouseVersion}: ${JSON.stringify(scores)}; failing audits: ${JSON.stringify(failing)}`);
      expect(scores['accessibility'], JSON.stringify(failing)).toBe(100);
      expect(scores['best-practices'], JSON.stringify(failing)).toBeGreaterThanOrEqual(95);
      expect(scores['seo'], JSON.stringify(failing)).toBeGreaterThanOrEqual(95);
    } finally {
      await chrome.kill();
    }
  });
});
