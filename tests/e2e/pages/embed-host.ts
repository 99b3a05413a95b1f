import { expect, type Frame, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { AppPage } from './app-page';
import { EmbedView } from './shipping';

/** A message a host page received from an embed. */
export interface Received {
  type: string;
  height?: number;
  chapter?: string;
  step?: number;
  steps?: number;
  playing?: boolean;
}

/**
 * Page object for the example host page (`public/embed-example.html`): two chapters side by side,
 * each a region with Play, Pause, a step box, Go to step, a status line and the iframe.
 */
export class EmbedHostPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** Opens the example page under `prefix` (`./` or the docs sub-path) and records what the embeds say. */
  async open(prefix = './'): Promise<void> {
    await this.recordMessages();
    await this.page.goto(`${prefix}public/embed-example.html`);
    await expect(this.page.getByRole('heading', { level: 1, name: 'nodeline, embedded' })).toBeVisible();
  }

  /**
   * Opens the example page and waits for the first embed to rest, paused, at step 1; returns that
   * embed and its clock, for tests that check a message changed nothing.
   */
  async openAtRest(): Promise<{ one: EmbedView; clock: string }> {
    await this.open();
    const one = this.embed(1);
    await one.expectStep(1);
    await expect(one.play).toBeVisible();
    return { one, clock: await one.clock.innerText() };
  }

  /** Keeps every nodeline message the host window receives in `window.__received`. */
  async recordMessages(): Promise<void> {
    await this.page.addInitScript(() => {
      if (window.top !== window) {
        return;
      }
      const received: unknown[] = [];
      (window as unknown as { __received: unknown[] }).__received = received;
      window.addEventListener('message', (e) => {
        const i = Array.prototype.findIndex.call(document.querySelectorAll('iframe'), (f: HTMLIFrameElement) => f.contentWindow === e.source);
        received.push({ frame: i, origin: e.origin, data: e.data });
      });
    });
  }

  /** What embed `n` (1-based, in page order) has sent the host so far. */
  async received(n: number): Promise<Received[]> {
    return this.page.evaluate(
      (i) =>
        ((window as unknown as { __received: { frame: number; data: Received }[] }).__received ?? [])
          .filter((m) => m.frame === i)
          .map((m) => m.data),
      n - 1,
    );
  }

  /** Chapter `n`'s region on the host page. */
  section(n: number): Locator {
    return this.page.getByRole('region', { name: new RegExp(`^Chapter ${n}:`) });
  }

  iframe(n: number): Locator {
    return this.section(n).locator('iframe');
  }

  /** The app inside embed `n`. */
  embed(n: number): EmbedView {
    return new EmbedView(this.iframe(n).contentFrame());
  }

  frameLocator(n: number): FrameLocator {
    return this.iframe(n).contentFrame();
  }

  /** The `Frame` of embed `n`, once its app has mounted. */
  async frame(n: number): Promise<Frame> {
    await expect(this.embed(n).main).toBeVisible();
    const handle = await this.iframe(n).elementHandle();
    const frame = await handle?.contentFrame();
    if (!frame) {
      throw new Error(`embed ${n} has no frame`);
    }
    return frame;
  }

  hostPlay(n: number): Locator {
    return this.section(n).getByRole('button', { name: 'Play', exact: true });
  }

  hostPause(n: number): Locator {
    return this.section(n).getByRole('button', { name: 'Pause', exact: true });
  }

  hostStep(n: number): Locator {
    return this.section(n).getByRole('spinbutton', { name: 'Step' });
  }

  hostGoto(n: number): Locator {
    return this.section(n).getByRole('button', { name: 'Go to step', exact: true });
  }

  /** The host's line about embed `n` ("Step 2 of 6 (registration), paused"). */
  hostStatus(n: number): Locator {
    return this.section(n).getByRole('status');
  }

  /** Posts `message` to embed `n` from the host window (as the host page's own script would). */
  async post(n: number, message: unknown, targetOrigin = '*'): Promise<void> {
    await this.page.evaluate(
      ([i, m, o]) => (document.querySelectorAll('iframe')[i as number] as HTMLIFrameElement).contentWindow?.postMessage(m, o as string),
      [n - 1, message, targetOrigin] as const,
    );
  }

  /** The height of the iframe's viewport (inside its border), in CSS pixels. */
  async iframeHeight(n: number): Promise<number> {
    return this.iframe(n).evaluate((f) => f.clientHeight);
  }
}
