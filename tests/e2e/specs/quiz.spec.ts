import { expect, test } from '@playwright/test';
import { expectNoViolations } from '../pages/axe';
import { EmbedHostPage } from '../pages/embed-host';
import { QuizPage } from '../pages/quiz';

/**
 * Question mode (`&quiz=1`): the story stops before a moment that matters and asks; each kind
 * of question answered right and wrong; nothing gives the answer away while it is asked; the URL
 * keeps the answers; the embed reports them; axe with a question open; Japanese.
 *
 * Node failure's questions, in order: 1 Ready becomes? (choice, at step 2), 2 seconds from the
 * last renewal to Unknown (time), 3 order of four events (at step 3), 4 seconds from the NoExecute
 * taint to the deletion (time, at step 4), 5 which node gets the replacement (node, at step 5).
 * Opening a step whose moment is a stop asks that question at once.
 */

const FAILURE = './?chapter=node-failure&quiz=1';
// Links to a question's step play at 0.1× where the next question is only seconds of simulated
// time away, so that it cannot replace the result while a test reads it.

test.describe('question mode', () => {
  test('a choice question stops the story, hides what would tell, and says why when answered right', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=2&speed=0.1`);
    await expect(quiz.questionHeading(1, 5)).toBeVisible();
    await expect(quiz.playButton).toBeVisible();
    // The story waits: the narration, the timeline's marks and the live region tell nothing.
    await expect(page.locator('html')).toHaveAttribute('data-quiz-conceal', 'narration track');
    await expect(quiz.narration).toBeHidden();
    await expect(quiz.stepMarker(3)).toBeHidden();
    await expect(quiz.status).not.toContainText('Step');
    // The focus is on the question, which the keyboard answers.
    await expect(quiz.panel()).toBeFocused();
    await expect(quiz.check).toBeDisabled();
    await page.keyboard.press('Tab');
    await expect(quiz.option('True')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(quiz.option('Unknown')).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(quiz.check).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(quiz.status).toContainText('Right.');
    await expect(quiz.status).toContainText('--node-monitor-grace-period (50 s in Kubernetes 1.34)');
    await expect(quiz.continue).toBeFocused();
    // The answer is given: nothing is hidden any more, and the story waits while the reader
    // reads why.
    await expect(page.locator('html')).not.toHaveAttribute('data-quiz-conceal');
    await expect(quiz.narration).toBeVisible();
    await quiz.expectProgressParam('r----');
    await expect(quiz.playButton).toBeVisible();
    // Continue (from the keyboard) plays on to show it; the explanation goes.
    await page.keyboard.press('Enter');
    await expect(quiz.pauseButton).toBeVisible();
    await expect(quiz.panel()).not.toContainText('--node-monitor-grace-period');
    await expect(quiz.progress).toHaveText('Questions: 1 of 5 answered, 1 right');
    quiz.expectNoErrors();
  });

  test('a wrong choice gives the answer and the setting behind it', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=2&speed=0.1`);
    await quiz.option('False').check();
    await quiz.check.click();
    await expect(quiz.panel()).toContainText('Not quite. The answer: Unknown.');
    await expect(quiz.status).toContainText('Not quite. The answer: Unknown.');
    await quiz.expectProgressParam('w----');
    quiz.expectNoErrors();
  });

  test('the 1.31 profile asks the same question with its own grace period', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=2&k8s=1.31&speed=0.1`);
    await quiz.option('Unknown').check();
    await quiz.check.click();
    await expect(quiz.panel()).toContainText('(40 s in Kubernetes 1.31)');
  });

  test('an order question is ordered with the keyboard, right and wrong', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=3&speed=0.1`);
    await expect(quiz.questionHeading(3, 5)).toBeVisible();
    await expect(quiz.orderItems).toHaveText([
      /The Pod on node-1 is deleted/,
      /unreachable:NoExecute taint/,
      /The replacement Pod runs/,
      /NodeNotReady/,
    ]);
    // Three times up for NodeNotReady, once for the taint; the focus follows the item.
    await quiz.moveUp('NodeNotReady').focus();
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Enter');
      await expect(quiz.moveUp('NodeNotReady')).toBeFocused();
    }
    await quiz.moveUp('node-1 gets the node.kubernetes.io/unreachable:NoExecute taint').click();
    await expect(quiz.orderItems).toHaveText([/NodeNotReady/, /NoExecute taint/, /is deleted/, /replacement/]);
    await quiz.check.click();
    await expect(quiz.status).toContainText('Right.');
    await quiz.expectProgressParam('--r--');

    await quiz.goto(`${FAILURE}&step=3&speed=0.1`);
    await quiz.check.click();
    await expect(quiz.panel()).toContainText('Not quite. The answer: NodeNotReady → node-1 gets the');
    quiz.expectNoErrors();
  });

  test('a time question takes seconds within a tolerance and refuses words', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=4&speed=0.1`);
    await expect(quiz.questionHeading(4, 5)).toBeVisible();
    // A Pod's tolerations would tell: the inspector is hidden too.
    await expect(page.locator('html')).toHaveAttribute('data-quiz-conceal', 'narration track inspector');
    await expect(quiz.inspector).toBeHidden();
    await quiz.seconds.fill('soon');
    await quiz.check.click();
    await expect(quiz.panel()).toContainText('Enter a number of seconds, such as 45.');
    await expect(quiz.seconds).toHaveAttribute('aria-invalid', 'true');
    await expect(quiz.seconds).toBeFocused();
    await quiz.seconds.fill('298');
    await quiz.seconds.press('Enter');
    await expect(quiz.status).toContainText('Right. The answer: 300 s.');
    await expect(quiz.status).toContainText('tolerationSeconds 300');

    await quiz.goto(`${FAILURE}&step=4&speed=0.1`);
    await quiz.seconds.fill('40');
    await quiz.check.click();
    await expect(quiz.panel()).toContainText('Not quite. The answer: 300 s.');
    quiz.expectNoErrors();
  });

  test('a node question offers the nodes on the stage', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=5`);
    await expect(quiz.questionHeading(5, 5)).toBeVisible();
    await expect(quiz.panel().getByRole('radio')).toHaveCount(2);
    await quiz.option('node-2').check();
    await quiz.check.click();
    await expect(quiz.status).toContainText('Right.');
    await expect(quiz.panel()).toContainText('rules out node-1');

    await quiz.goto(`${FAILURE}&step=5`);
    await quiz.option('node-1').check();
    await quiz.check.click();
    await expect(quiz.panel()).toContainText('Not quite. The answer: node-2.');
    quiz.expectNoErrors();
  });

  test('a node question is answered by clicking a machine on the stage', async ({ page }) => {
    const quiz = new QuizPage(page);
    // No node question open: a click on a machine picks nothing.
    await quiz.goto(`${FAILURE}&step=2&speed=0.1`);
    await expect(quiz.questionHeading(1, 5)).toBeVisible();
    await quiz.machine('node-1').click();
    await expect(quiz.panel().getByRole('radio', { checked: true })).toHaveCount(0);
    await expect(quiz.check).toBeDisabled();
    await expect(quiz.machine('node-1')).not.toHaveAttribute('data-picked');

    // The right machine.
    await quiz.goto(`${FAILURE}&step=5`);
    await expect(quiz.questionHeading(5, 5)).toBeVisible();
    await expect(quiz.panel()).toContainText('Choose a node below, or click its machine on the stage.');
    await quiz.machine('node-1').click();
    await expect(quiz.option('node-1')).toBeChecked();
    await quiz.machine('node-2').click();
    await expect(quiz.option('node-2')).toBeChecked();
    await expect(quiz.option('node-1')).not.toBeChecked();
    // The stage marks the machine picked.
    await expect(quiz.machine('node-2')).toHaveAttribute('data-picked', '');
    await expect(quiz.machine('node-1')).not.toHaveAttribute('data-picked');
    await page.screenshot({ path: test.info().outputPath('machine-picked.png') });
    await quiz.check.click();
    await expect(quiz.status).toContainText('Right.');
    // Answered: the mark goes, and the stage picks nothing more.
    await expect(quiz.machine('node-2')).not.toHaveAttribute('data-picked');
    await quiz.machine('node-1').click();
    await expect(quiz.machine('node-1')).not.toHaveAttribute('data-picked');
    await expect(quiz.panel()).toContainText('rules out node-1');

    // The wrong machine.
    await quiz.goto(`${FAILURE}&step=5`);
    await expect(quiz.questionHeading(5, 5)).toBeVisible();
    await quiz.machine('node-1').click();
    await expect(quiz.option('node-1')).toBeChecked();
    await quiz.check.click();
    await expect(quiz.panel()).toContainText('Not quite. The answer: node-2.');
    quiz.expectNoErrors();
  });

  test('at 10x the explanation stays until Continue', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=2&speed=10`);
    await expect(quiz.questionHeading(1, 5)).toBeVisible();
    await quiz.option('Unknown').check();
    await quiz.check.click();
    await expect(quiz.continue).toBeFocused();
    const clock = await quiz.clock.textContent();
    // Frames go by; the playhead does not move, and the explanation stays.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
    await expect(quiz.clock).toHaveText(clock!);
    await expect(quiz.panel()).toContainText('--node-monitor-grace-period');
    await expect(quiz.playButton).toBeVisible();
    await quiz.continue.click();
    await expect(quiz.pauseButton).toBeVisible();
    await expect(quiz.clock).not.toHaveText(clock!);
    quiz.expectNoErrors();
  });

  test('skipping plays on and gives the focus back', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=2&speed=0.1`);
    await expect(quiz.questionHeading(1, 5)).toBeVisible();
    await quiz.skip.click();
    await expect(quiz.pauseButton).toBeVisible();
    await expect(quiz.panel().getByRole('heading')).toHaveCount(0);
    await expect(page.locator('html')).not.toHaveAttribute('data-quiz-conceal');
    await expect(quiz.progress).toHaveText('Questions: 0 of 5 answered, 0 right');
    await expect(quiz.pauseButton).toBeFocused();
  });

  test('the URL keeps the answers, and a shared link shares them', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=2&speed=0.1`);
    await quiz.option('Unknown').check();
    await quiz.check.click();
    await quiz.expectProgressParam('r----');
    expect(quiz.params().get('quiz')).toBe('1');
    const shared = quiz.params();
    shared.set('autoplay', '0');
    await quiz.goto(`./?${shared.toString()}`);
    await expect(quiz.progress).toHaveText('Questions: 1 of 5 answered, 1 right');
    // A progress the page cannot read fully is a notice, never a failure.
    await quiz.goto(`${FAILURE}&progress=rx&autoplay=0`);
    await expect(quiz.notices).toContainText('"rx" is not a progress');
    await expect(quiz.progress).toHaveText('Questions: 1 of 5 answered, 1 right');
    quiz.expectNoErrors();
  });

  test('the switch in the header turns question mode on and off', async ({ page }) => {
    const quiz = new QuizPage(page);
    // Paused at step 1's moment, before the first question's stop (step 2's lead-in).
    await quiz.goto('./?chapter=node-failure&step=1&autoplay=0');
    await expect(quiz.switch).toHaveAttribute('aria-pressed', 'false');
    await expect(quiz.panel()).toHaveCount(0);
    await quiz.switch.click();
    await expect(quiz.switch).toHaveAttribute('aria-pressed', 'true');
    await expect(quiz.progress).toHaveText('Questions: 0 of 5 answered, 0 right');
    await expect.poll(() => quiz.params().get('quiz')).toBe('1');
    await quiz.playButton.click();
    await expect(quiz.questionHeading(1, 5)).toBeVisible();
  });

  test("switched on at a step's moment, playing on asks that step's question", async ({ page }) => {
    const quiz = new QuizPage(page);
    // Step 2's moment is past its question's stop (the step's lead-in): playing on goes back to
    // the stop and asks, rather than skipping it.
    await quiz.goto('./?chapter=node-failure&step=2&autoplay=0');
    await quiz.switch.click();
    await expect(quiz.switch).toHaveAttribute('aria-pressed', 'true');
    await quiz.playButton.click();
    await expect(quiz.questionHeading(1, 5)).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('data-quiz-conceal', 'narration track');
    quiz.expectNoErrors();
  });

  test('the chapter ends with a summary linking each missed moment', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=6&speed=60&progress=rw-rr`);
    await expect(quiz.panel().getByRole('heading', { name: 'Your answers in this chapter' })).toBeVisible({ timeout: 30_000 });
    await expect(quiz.panel()).toContainText('Worth another look:');
    // Each link names its step: the number and the title.
    const again = quiz.panel().getByRole('link', { name: 'Play from step 2: The kubelet on node-1 stops', exact: true });
    await expect(again).toHaveCount(1);
    const href = new URL((await again.getAttribute('href')) ?? '', page.url());
    expect(href.searchParams.get('progress')).toBe('r--rr');
    expect(href.searchParams.get('quiz')).toBe('1');
    await again.click();
    await expect(quiz.questionHeading(2, 5)).toBeVisible({ timeout: 30_000 });
    quiz.expectNoErrors();
  });

  test('axe finds nothing with a question open, in both languages', async ({ page }) => {
    test.setTimeout(90_000);
    const quiz = new QuizPage(page);
    for (const step of [2, 3, 4]) {
      await quiz.goto(`${FAILURE}&step=${step}&speed=0.1`);
      await expect(quiz.panel().getByRole('heading')).toBeVisible();
      await expectNoViolations(page, `node-failure question at step ${step}`);
    }
    await quiz.goto(`${FAILURE}&step=2&lang=ja&theme=dark&speed=0.1`);
    await expect(quiz.panel('問題').getByRole('heading', { name: '問題 1 / 5' })).toBeVisible();
    await expectNoViolations(page, 'Japanese, dark');
  });

  test('Japanese: the question, its options and the result', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=2&lang=ja&speed=0.1`);
    const panel = quiz.panel('問題');
    await expect(panel.getByRole('heading', { name: '問題 1 / 5' })).toBeVisible();
    await expect(panel).toContainText('node-1 の kubelet がこれから止まります。');
    await expect(page.getByRole('button', { name: '問題', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await quiz.screenshot('quiz-question-ja');
    await panel.getByRole('radio', { name: 'False', exact: true }).check();
    await panel.getByRole('button', { name: '答え合わせ' }).click();
    await expect(quiz.status).toContainText('残念、違います。 答え: Unknown。');
    await quiz.screenshot('quiz-result-ja');
    quiz.expectNoErrors();
  });

  test('English screenshots of a question open and answered', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto(`${FAILURE}&step=3&speed=0.1`);
    await expect(quiz.questionHeading(3, 5)).toBeVisible();
    await quiz.screenshot('quiz-question-en');
    await quiz.check.click();
    await expect(quiz.continue).toBeVisible();
    await quiz.screenshot('quiz-result-en');
  });

  test('an embed tells its parent each answer and the totals at the end', async ({ page }) => {
    const host = new EmbedHostPage(page);
    await host.open();
    await host.iframe(2).evaluate((f: HTMLIFrameElement) => {
      f.src = '../?embed=1&chapter=node-failure&step=2&quiz=1';
    });
    const embed = host.frameLocator(2);
    await embed.getByRole('radio', { name: 'Unknown', exact: true }).check();
    await embed.getByRole('button', { name: 'Check', exact: true }).click();
    await expect
      .poll(async () => (await host.received(2)).filter((m) => m.type === 'nodeline:answer'))
      .toEqual([{ type: 'nodeline:answer', chapter: 'node-failure', question: 'node-failure-ready', answer: 'Unknown', correct: true }]);

    await host.iframe(2).evaluate((f: HTMLIFrameElement) => {
      f.src = '../?embed=1&chapter=node-failure&step=6&quiz=1&speed=60&progress=rrrw-';
    });
    await expect
      .poll(async () => (await host.received(2)).filter((m) => m.type === 'nodeline:quizdone'), { timeout: 30_000 })
      .toEqual([{ type: 'nodeline:quizdone', chapter: 'node-failure', answered: 4, correct: 3, total: 5 }]);
  });

  test('the fleet chapter asks before the next taint, with the rates and the chart hidden', async ({ page }) => {
    const quiz = new QuizPage(page);
    await quiz.goto('./?chapter=zone-outage&quiz=1&step=2&speed=10');
    await expect(quiz.questionHeading(1, 4)).toBeVisible({ timeout: 30_000 });
    // The zone panels' rates and the chart (drawn to the end of the story) would tell.
    await expect(page.locator('html')).toHaveAttribute('data-quiz-conceal', 'narration track inspector fleet');
    await expect(page.locator('.zone-chart')).toBeHidden();
    await expect(page.locator('.fleet-svg .zone-rate').first()).toBeHidden();
    await quiz.seconds.fill('10');
    await quiz.check.click();
    await expect(quiz.status).toContainText('Right. The answer: 10 s.');
    await expect(quiz.status).toContainText('--node-eviction-rate');
    await expect(page.locator('html')).not.toHaveAttribute('data-quiz-conceal');
    await expect(page.locator('.zone-chart')).toBeVisible();
    quiz.expectNoErrors();
  });
});
