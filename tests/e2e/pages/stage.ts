import { expect, type Locator, type Page } from '@playwright/test';
import * as path from 'node:path';
import { AppPage, SCREENSHOT_DIR } from './app-page';

/**
 * Page object for the stage: the SVG with the machines, the control plane and the stored
 * objects. Groups are found by role and accessible name (they state their state, e.g.
 * "node-1: kubelet stopped"). Packets are decorative (the caption says the same in words), so
 * they are found by their data attribute.
 */
export class StagePage {
  readonly app: AppPage;

  constructor(readonly page: Page) {
    this.app = new AppPage(page);
  }

  /** Opens the app with `query` (e.g. `?chapter=node-failure&t=2m30s&autoplay=0`). */
  async goto(query: string): Promise<void> {
    await this.app.goto(`./${query}`);
    await expect(this.region).toBeVisible();
  }

  get region(): Locator {
    return this.page.getByRole('region', { name: 'Stage', exact: true });
  }

  get svg(): Locator {
    return this.region.locator('svg.stage-svg');
  }

  group(name: string | RegExp): Locator {
    return this.region.getByRole('group', { name, exact: typeof name === 'string' });
  }

  machine(name: string): Locator {
    return this.group(new RegExp(`^Machine ${name} \\(\\d+\\.\\d+\\.\\d+\\.\\d+\\)$`));
  }

  kubelet(machine: string, state: 'running' | 'stopped'): Locator {
    return this.group(`${machine}: kubelet ${state}`);
  }

  containers(machine: string): Locator {
    return this.group(new RegExp(`^${machine}: (\\d+ containers|1 container) running`));
  }

  network(machine: string, cut: boolean): Locator {
    return this.group(`${machine}: network to the API server${cut ? ' cut' : ''}`);
  }

  get apiserver(): Locator {
    return this.group('kube-apiserver');
  }

  /** The visible "Last request, from …: METHOD /path → code" line under the drawing. */
  get caption(): Locator {
    return this.region.getByText(/^(Last request, from |No request yet)/);
  }

  /** Requests on screen (hidden slots are not visible). */
  get packets(): Locator {
    return this.region.locator('[data-packet]');
  }

  /** Packets on screen that show a response code. */
  get answeredPackets(): Locator {
    return this.packets.filter({ hasText: /\s(200|201|403|404|409)$/ });
  }

  /** Saves the stage alone as `name.png` and the visible page as `name-page.png`. */
  async screenshot(name: string): Promise<void> {
    await this.region.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
    await this.page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-page.png`) });
  }
}
