import { expect, type Locator } from '@playwright/test';
import { PanelsPage } from './panels';

/**
 * Page object for the inspector's YAML, kubectl and Requests tabs. Locators go by role and
 * accessible name; the written output (kubectl's text, YAML, -v=8 lines) is found by its class.
 */
export class KubectlPage extends PanelsPage {
  newTab(name: 'YAML' | 'kubectl' | 'Requests'): Locator {
    return this.inspector.getByRole('tab', { name, exact: true });
  }

  // ---------------------------------------------------------------- kubectl

  get prompt(): Locator {
    return this.inspector.getByRole('textbox', { name: 'kubectl command' });
  }

  get run(): Locator {
    return this.inspector.getByRole('button', { name: 'Run', exact: true });
  }

  suggestion(command: string): Locator {
    return this.inspector.getByRole('group', { name: 'Try' }).getByRole('button', { name: command, exact: true });
  }

  /** The transcript: the command, then what kubectl printed. */
  get output(): Locator {
    return this.inspector.locator('pre.kubectl-out');
  }

  get stderr(): Locator {
    return this.output.locator('.stderr');
  }

  /** Types `line` at the prompt and presses Enter. */
  async type(line: string): Promise<void> {
    await this.prompt.fill(line);
    await this.prompt.press('Enter');
  }

  /** The transcript's text for `command` printing `stdout`. */
  async expectTranscript(command: string, stdout: string): Promise<void> {
    await expect(this.output).toHaveText(`$ ${command}\n${stdout}`, { useInnerText: true });
  }

  // ---------------------------------------------------------------- YAML

  get yamlObject(): Locator {
    return this.inspector.getByRole('combobox', { name: 'Object' });
  }

  get compareWith(): Locator {
    return this.inspector.getByRole('combobox', { name: 'Compare with' });
  }

  get yaml(): Locator {
    return this.inspector.locator('pre.yaml');
  }

  get changedLines(): Locator {
    return this.yaml.locator('mark.chg');
  }

  get diff(): Locator {
    return this.inspector.locator('pre.yaml-diff');
  }

  get change(): Locator {
    return this.inspector.locator('.yaml-change');
  }

  // ---------------------------------------------------------------- Requests

  get requests(): Locator {
    return this.inspector.locator('ul.requests > li');
  }

  request(text: RegExp): Locator {
    return this.requests.locator('summary').filter({ hasText: text });
  }

  get verbose(): Locator {
    return this.inspector.locator('pre.verbose');
  }

  /** A request's packet on the stage. */
  packet(): Locator {
    return this.page.locator('g.packets [data-packet]');
  }
}
