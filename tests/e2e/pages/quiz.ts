import { expect, type Locator, type Page } from '@playwright/test';
import { AppPage } from './app-page';

/**
 * Page object for question mode (`&quiz=1`): the question panel, its controls for each kind of
 * question, the result, the progress line and the chapter's summary.
 */
export class QuizPage extends AppPage {
  constructor(page: Page) {
    super(page);
  }

  /** The question panel (a region named "Question", or "問題" in Japanese). */
  panel(name = 'Question'): Locator {
    return this.page.getByRole('region', { name, exact: true });
  }

  /** The question's heading ("Question 2 of 5"). */
  questionHeading(n: number, of: number): Locator {
    return this.panel().getByRole('heading', { name: `Question ${n} of ${of}` });
  }

  get check(): Locator {
    return this.panel().getByRole('button', { name: 'Check', exact: true });
  }

  get skip(): Locator {
    return this.panel().getByRole('button', { name: 'Skip', exact: true });
  }

  /** Under an answer's explanation: plays on. */
  get continue(): Locator {
    return this.panel().getByRole('button', { name: 'Continue', exact: true });
  }

  option(name: string): Locator {
    return this.panel().getByRole('radio', { name, exact: true });
  }

  /** A machine on the stage ("Machine node-2 (10.0.0.12)"), which a node question lets the reader click. */
  machine(node: string): Locator {
    return this.page.getByRole('group', { name: new RegExp(`^Machine ${node} \\(`) });
  }

  get seconds(): Locator {
    return this.panel().getByRole('textbox', { name: 'Seconds' });
  }

  moveUp(item: string): Locator {
    return this.panel().getByRole('button', { name: `Move up: ${item}`, exact: true });
  }

  /** The order question's items, as shown. */
  get orderItems(): Locator {
    return this.panel().getByRole('listitem');
  }

  /** The progress line ("Questions: 1 of 5 answered, 1 right"). */
  get progress(): Locator {
    return this.panel().getByText(/^Questions: /);
  }

  get switch(): Locator {
    return this.page.getByRole('button', { name: 'Questions', exact: true });
  }

  get narration(): Locator {
    return this.page.locator('section.narration');
  }

  get inspector(): Locator {
    return this.page.getByRole('region', { name: /^Inspector/ });
  }

  /** The timeline's step markers ("Step 3"). */
  stepMarker(n: number): Locator {
    return this.page.getByRole('button', { name: `Step ${n}`, exact: true });
  }

  /** The URL's query parameters. */
  params(): URLSearchParams {
    return new URL(this.page.url()).searchParams;
  }

  /** Waits until the URL's `progress` parameter says `value`. */
  async expectProgressParam(value: string): Promise<void> {
    await expect.poll(() => this.params().get('progress')).toBe(value);
  }
}
