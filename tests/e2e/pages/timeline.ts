import { expect, type Locator, type Page } from '@playwright/test';
import { AppPage, parseClock } from './app-page';

/**
 * Page object for the timeline bar (transport, clock, speed, scrub track, step markers) and the
 * keyboard shortcut sheet. Locators go by role and accessible name, scoped to the bar's region.
 */
export class TimelinePage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** The bar (a region named "Playback"). */
  get bar(): Locator {
    return this.page.getByRole('region', { name: 'Playback' });
  }

  get replayButton(): Locator {
    return this.bar.getByRole('button', { name: 'Replay', exact: true });
  }

  get previousStep(): Locator {
    return this.bar.getByRole('button', { name: 'Previous step', exact: true });
  }

  get nextStep(): Locator {
    return this.bar.getByRole('button', { name: 'Next step', exact: true });
  }

  get speed(): Locator {
    return this.bar.getByRole('combobox', { name: 'Speed' });
  }

  get skipQuiet(): Locator {
    return this.bar.getByRole('checkbox', { name: 'Fast-forward quiet stretches' });
  }

  get shortcutsButton(): Locator {
    return this.bar.getByRole('button', { name: 'Keyboard shortcuts', exact: true });
  }

  /** The scrub track. */
  get slider(): Locator {
    return this.bar.getByRole('slider', { name: 'Timeline' });
  }

  /** The marker of step `n` (1-based). */
  marker(n: number): Locator {
    return this.bar.getByRole('button', { name: `Step ${n}`, exact: true });
  }

  get markers(): Locator {
    return this.bar.getByRole('button', { name: /^Step \d+$/ });
  }

  /** The moment of step `n` as its marker tells it ("T+01:30"). */
  async markerClock(n: number): Promise<string> {
    const clock = await this.marker(n).getAttribute('data-clock');
    expect(clock, `step ${n} has a moment`).toMatch(/^T\+/);
    return clock as string;
  }

  /** The fast-forward indicator ("Fast-forwarding a quiet stretch (×40)…"). */
  get fastForwarding(): Locator {
    return this.bar.getByText(/^Fast-forwarding a quiet stretch \(×\d+(\.\d)?\)/);
  }

  get chapterEnd(): Locator {
    return this.bar.getByText(/^End of the chapter's story/);
  }

  /** The shortcut sheet (a modal dialog). */
  get sheet(): Locator {
    return this.page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  }

  get sheetClose(): Locator {
    return this.sheet.getByRole('button', { name: 'Close', exact: true });
  }

  /** The simulated clock in seconds. */
  async clockSeconds(): Promise<number> {
    return parseClock(await this.clock.innerText());
  }

  /** Waits until the clock shows `label` exactly. */
  async expectClock(label: string): Promise<void> {
    await expect(this.clock).toHaveText(label);
    await expect(this.slider).toHaveAttribute('aria-valuetext', label);
  }

  /** The simulated end of the timeline, in seconds (the slider's maximum). */
  async endSeconds(): Promise<number> {
    return Number(await this.slider.getAttribute('aria-valuemax'));
  }

  /** Waits for `count` animation frames: a state to wait for, not a fixed sleep. */
  async frames(count: number): Promise<void> {
    await this.page.evaluate(
      (n) =>
        new Promise<void>((resolve) => {
          let left = n;
          const tick = () => (--left <= 0 ? resolve() : requestAnimationFrame(tick));
          requestAnimationFrame(tick);
        }),
      count,
    );
  }

  /** Drags the playhead from `from` to `to` (fractions of the track's width). */
  async drag(from: number, to: number): Promise<void> {
    await this.slider.scrollIntoViewIfNeeded();
    const box = await this.slider.boundingBox();
    if (!box) {
      throw new Error('the timeline slider is not visible');
    }
    const y = box.y + box.height / 2;
    await this.page.mouse.move(box.x + box.width * from, y);
    await this.page.mouse.down();
    await this.page.mouse.move(box.x + box.width * ((from + to) / 2), y, { steps: 4 });
    await this.page.mouse.move(box.x + box.width * to, y, { steps: 4 });
    await this.page.mouse.up();
  }
}
