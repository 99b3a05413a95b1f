import { expect, type ConsoleMessage, type Locator, type Page } from '@playwright/test';
import * as path from 'node:path';

/** Where specs save screenshots (gitignored). */
export const SCREENSHOT_DIR = path.join(__dirname, '..', 'screenshots');

/**
 * Page object for the nodeline app. Specs talk to the page through this class only, so
 * markup changes are fixed in one place. Locators go by role and accessible name.
 */
export class AppPage {
  /** Console errors and uncaught page errors seen since construction. */
  readonly errors: string[] = [];

  constructor(readonly page: Page) {
    page.on('console', (msg: ConsoleMessage) => {
      if (msg.type() === 'error') {
        this.errors.push(`console.error: ${msg.text()}`);
      }
    });
    page.on('pageerror', (err: Error) => {
      this.errors.push(`pageerror: ${err.message}`);
    });
    page.on('requestfailed', (req) => {
      this.errors.push(`request failed: ${req.url()} (${req.failure()?.errorText ?? '?'})`);
    });
    page.on('response', (res) => {
      if (res.status() >= 400) {
        this.errors.push(`HTTP ${res.status()}: ${res.url()}`);
      }
    });
  }

  /** Opens the app at `path` (relative to BASE_URL) and waits until it has mounted. */
  async goto(path = './'): Promise<void> {
    await this.page.goto(path);
    await expect(this.main).toBeVisible();
  }

  get main(): Locator {
    return this.page.getByRole('main');
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 });
  }

  get playButton(): Locator {
    return this.page.getByRole('button', { name: 'Play', exact: true });
  }

  get pauseButton(): Locator {
    return this.page.getByRole('button', { name: 'Pause', exact: true });
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }

  /** Fails with the collected messages if the page logged any error. */
  expectNoErrors(): void {
    expect(this.errors, 'console errors, page errors or failed requests').toEqual([]);
  }
}
