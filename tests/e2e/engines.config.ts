import { defineConfig } from '@playwright/test';
import type { EngineOptions } from './engines/fixtures';

// The cross-engine suite: the reader's journeys in Firefox ESR (geckodriver) and WebKitGTK
// (WebKitWebDriver), driven over WebDriver. `cargo xtask test` installs the engines and drivers,
// serves dist/ with the documented Content-Security-Policy and passes BASE_URL, the bundle's
// folder and the binaries' paths. Playwright is only the test runner here: it starts no browser.
if (!process.env.BASE_URL) {
  throw new Error('BASE_URL is not set: run the cross-engine tests through `cargo xtask test`.');
}

export default defineConfig<EngineOptions>({
  testDir: './engines',
  outputDir: './test-results/engines',
  // One worker per engine: the two engines run side by side, each journey in turn.
  fullyParallel: false,
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // The JSON report is what `cargo xtask test` names the failures from, at the end of its output.
  reporter: [['list'], ['json', { outputFile: './test-results/engines/results.json' }]],
  projects: [
    { name: 'firefox', use: { engine: 'firefox' } },
    { name: 'webkit', use: { engine: 'webkit' } },
  ],
});
