import { defineConfig, devices } from '@playwright/test';

// The site under test is served by `cargo xtask test`, which builds dist/, starts the
// project's own static server on an ephemeral port and passes its URL in BASE_URL.
const baseURL = process.env.BASE_URL;
if (!baseURL) {
  throw new Error('BASE_URL is not set: run the browser tests through `cargo xtask test`.');
}

export default defineConfig({
  testDir: './specs',
  outputDir: './test-results',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // The JSON report is what `cargo xtask test` names the failures from, at the end of its output.
  reporter: [['list'], ['json', { outputFile: './test-results/results.json' }]],
  use: {
    baseURL,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download is not reachable here.
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1440, height: 900 } },
    },
  ],
});
