import { expect, type Locator } from '@playwright/test';
import { AppPage } from './app-page';

/**
 * Page object for the narration, the inspector and the sandbox controls. Locators go by role and
 * accessible name; the narration panel itself is named by its (changing) step title, so it is
 * found by its class.
 */
export class PanelsPage extends AppPage {
  // ---------------------------------------------------------------- narration

  get narration(): Locator {
    return this.page.locator('section.narration');
  }

  get stepOf(): Locator {
    return this.narration.locator('.step-of');
  }

  get stepTitle(): Locator {
    return this.narration.getByRole('heading', { level: 2 });
  }

  get playFromThisStep(): Locator {
    return this.narration.getByRole('link', { name: 'Play from this step' });
  }

  get stepList(): Locator {
    // A chapter's, or a story's of the site's.
    return this.page.getByRole('navigation', { name: /^Steps of this (chapter|story)$/ });
  }

  /** The "Play from step N" link of the compact step list. */
  stepLink(n: number): Locator {
    return this.stepList.getByRole('link', { name: new RegExp(`^Play from step ${n}:`) });
  }

  /** A narration term (words linked to a stage element). */
  term(words: string): Locator {
    return this.narration.getByRole('button', { name: words, exact: true }).first();
  }

  // ---------------------------------------------------------------- inspector

  get inspector(): Locator {
    return this.page.getByRole('region', { name: 'Inspector' });
  }

  tab(name: 'Node' | 'Lease' | 'Pods' | 'Events'): Locator {
    return this.inspector.getByRole('tab', { name, exact: true });
  }

  get openPanel(): Locator {
    return this.inspector.getByRole('tabpanel');
  }

  /** The STATUS cell of the `kubectl get nodes` line. */
  get nodeStatus(): Locator {
    return this.inspector.locator('table.get-nodes tbody td[data-col="status"]');
  }

  get conditions(): Locator {
    return this.inspector.locator('table.conditions');
  }

  /** The Conditions row of one condition type. */
  condition(type: string): Locator {
    return this.conditions.locator(`tbody tr[data-type="${type}"]`);
  }

  /** The cells of a Conditions row: status, heartbeat, transition, reason, message. */
  conditionCells(type: string): Locator {
    return this.condition(type).locator('td');
  }

  // ---------------------------------------------------------------- sandbox

  get sandbox(): Locator {
    return this.page.getByRole('region', { name: 'Sandbox' });
  }

  action(name: string): Locator {
    return this.sandbox.getByRole('button', { name, exact: true });
  }

  get machinePicker(): Locator {
    return this.sandbox.getByLabel('Machine', { exact: true });
  }

  get resetSandbox(): Locator {
    return this.sandbox.getByRole('button', { name: "Back to the chapter's story" });
  }

  get forkNotice(): Locator {
    return this.sandbox.locator('.fork');
  }

  get notices(): Locator {
    return this.page.getByRole('region', { name: 'Notices' });
  }

  /** Waits for the Ready condition to show `status` with `reason`. */
  async expectReady(status: string, reason: string, timeout = 10_000): Promise<void> {
    const cells = this.conditionCells('Ready');
    await expect(cells.nth(0)).toHaveText(status, { timeout });
    await expect(cells.nth(3)).toHaveText(reason, { timeout });
  }
}
