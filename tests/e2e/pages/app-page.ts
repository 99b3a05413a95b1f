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
      const error = req.failure()?.errorText ?? '?';
      // Chromium fetches the icon on its own after a load and cancels that fetch when the test
      // navigates on before it finished (seen on a loaded machine); a missing icon is still
      // caught below as an HTTP error.
      if (error === 'net::ERR_ABORTED' && /\/favicon-[0-9a-f]+\.svg$/.test(new URL(req.url()).pathname)) {
        return;
      }
      this.errors.push(`request failed: ${req.url()} (${error})`);
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
    // The page mounts in parts (src/app/mod.rs); it is busy until the last is there.
    await expect(this.main).not.toHaveAttribute('aria-busy', 'true');
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

  /** The one polite live region; it announces "Step N of M: title". */
  get status(): Locator {
    return this.page.getByRole('status');
  }

  /** The simulated clock ("T+00:43"). */
  get clock(): Locator {
    return this.page.getByLabel('Simulated time', { exact: true });
  }

  /** The chapter navigation link for chapter `n` (1-based). */
  chapterLink(n: number): Locator {
    return this.page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: new RegExp(`^Chapter ${n}\\b`) });
  }

  /** The notices region. */
  get notices(): Locator {
    return this.page.getByRole('region', { name: 'Notices' });
  }

  /** Waits until the clock shows at least `seconds` of simulated time. */
  async waitForClockAtLeast(seconds: number, timeout = 60_000): Promise<void> {
    await expect
      .poll(async () => parseClock(await this.clock.innerText()), { timeout })
      .toBeGreaterThanOrEqual(seconds);
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  }

  /** Fails with the collected messages if the page logged any error. */
  expectNoErrors(): void {
    expect(this.errors, 'console errors, page errors or failed requests').toEqual([]);
  }
}

/** Seconds in a clock label like "T+06:30" or "T+1:02:03". */
export function parseClock(label: string): number {
  const m = label.trim().match(/^T\+(?:(\d+):)?(\d+):(\d+)$/);
  if (!m) {
    return Number.NaN;
  }
  return (Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3]);
}
