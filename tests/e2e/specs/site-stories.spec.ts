import { expect, test, type Page } from '@playwright/test';
import { AppPage } from '../pages/app-page';
import { QuizPage } from '../pages/quiz';

// A site's stories (`?story=ID`, src/app/stories.rs): story files the build wrote into
// `stories/ID.story`, told as a chapter is told, listed after the chapters as "more stories";
// a story that cannot be read leaves the first chapter, with notices that say why and where.

/** The narration panel, named by its step's title. */
function narration(page: Page, title: string) {
  return page.getByRole('region', { name: title });
}

/** The chapter list's link to a story, by its title. */
function storyLink(page: Page, title: string) {
  return page.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: `Story ${title}` });
}

test.describe("a site's stories", () => {
  test('?story=ID opens the story at its step, in the chapter list and the address', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?story=two-nodes-fail&step=3&autoplay=0');
    await expect(narration(page, 'Both Unknown in the same pass')).toContainText('Step 3 of 7');
    await expect(narration(page, 'Both Unknown in the same pass')).toContainText('PartialDisruption');
    // Its words say "story" where a chapter's say "chapter".
    await expect(narration(page, 'Both Unknown in the same pass').getByRole('navigation', { name: 'Steps of this story' })).toBeVisible();
    await expect(storyLink(page, 'Two nodes fail at once')).toHaveAttribute('aria-current', 'page');
    await expect(app.chapterLink(1)).not.toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveTitle(/^Two nodes fail at once — /);
    // The story's third machine is on the stage.
    const stage = page.getByRole('region', { name: 'Stage', exact: true });
    await expect(stage.getByRole('group', { name: /^Machine node-3 \(/ })).toBeVisible();
    // Playing from a step keeps the story in the link.
    const play = narration(page, 'Both Unknown in the same pass').getByRole('link', { name: 'Play from this step' });
    await expect(play).toHaveAttribute('href', /^\?story=two-nodes-fail&step=3/);
    await expect(page).toHaveURL(/\?story=two-nodes-fail&/);
    await expect(app.notices).toBeHidden();
    app.expectNoErrors();
  });

  test('in Japanese, and a step past the last is the last', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?story=two-nodes-fail&step=40&autoplay=0&lang=ja');
    await expect(page.locator('section.narration .step-of')).toHaveText('ステップ 7 / 7');
    await expect(page.getByRole('region', { name: 'お知らせ' })).toContainText('ステップ 40 はありません (step)。ステップ 7 を使います。');
    await expect(page.getByRole('navigation', { name: '章' }).getByRole('link', { name: 'ストーリー 2 台の Node が同時に落ちる' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('more stories: opened in place from the chapter list, and back to a chapter', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?chapter=node-failure&autoplay=0');
    const list = page.getByRole('navigation', { name: 'Chapters' });
    await expect(list).toContainText('More stories');
    await storyLink(page, 'Node failure, tuned for fast failover').click();
    await expect(narration(page, 'The same two nodes, other settings')).toBeVisible();
    await expect(storyLink(page, 'Node failure, tuned for fast failover')).toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveURL(/\?story=short-toleration/);
    // A chapter of the list leaves the story.
    await app.chapterLink(2).click();
    await expect(app.chapterLink(2)).toHaveAttribute('aria-current', 'page');
    await expect(page).toHaveURL(/\?chapter=node-failure/);
    app.expectNoErrors();
  });

  test("a story's fleet is told at its own size, and at the link's", async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?story=zone-failover&step=4&autoplay=0');
    const step = narration(page, 'The whole zone: FullDisruption, tainted at 0.5 a second');
    await expect(step).toContainText('Step 4 of 5');
    await expect(page.locator('#fleet-desc')).toContainText(/Zone eu-west-1c: Normal; 50 Ready/);
    // `&nodes=30`: ten nodes a zone, the story's settings and steps as written.
    await app.goto('?story=zone-failover&nodes=30&step=4&autoplay=0');
    await expect(step).toContainText('Step 4 of 5');
    await expect(page.locator('#fleet-desc')).toContainText(/Zone eu-west-1c: Normal; 10 Ready/);
    await expect(page.locator('#fleet-desc')).toContainText(/Zone eu-west-1b: FullDisruption/);
    await expect(page).toHaveURL(/\?story=zone-failover&.*nodes=30/);
    await expect(app.notices).toBeHidden();
    // A story that is not a fleet keeps its machines: the size is said to be ignored, and dropped.
    await app.goto('?story=two-nodes-fail&nodes=30&autoplay=0');
    await expect(app.notices).toContainText(
      "Only a fleet's size can be set, and this is not a fleet: its machines are as written (nodes=30 ignored).",
    );
    await expect(page).not.toHaveURL(/nodes=/);
    app.expectNoErrors();
  });

  test('a story that is not on the site leaves the first chapter and says so', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto('?story=nowhere');
    await expect(app.notices).toContainText(
      'There is no story "nowhere" on this site (stories/nowhere.story: HTTP 404); showing the first chapter.',
    );
    await expect(app.chapterLink(1)).toHaveAttribute('aria-current', 'page');
    // The only error is the missing file itself.
    expect(app.errors.filter((e) => !e.includes('nowhere.story') && !/status of 404/.test(e))).toEqual([]);
  });

  test('a broken story file is answered line by line, and a bad name never fetched', async ({ page }) => {
    await page.route('**/stories/broken.story', (route) =>
      route.fulfill({ contentType: 'text/plain', body: 'nodeline-story=1\nid=broken\ntitle=T\nsummary=S\nduration=soon\nstep=at:1s\n' }),
    );
    const app = new AppPage(page);
    await app.goto('?story=broken');
    await expect(app.notices).toContainText('The story "broken" could not be read; showing the first chapter.');
    await expect(app.notices).toContainText('stories/broken.story:5: duration: invalid duration "soon"');
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await app.goto('?story=..%2Findex');
    await expect(app.notices).toContainText('is not a story\'s name');
    expect(requests.filter((u) => u.includes('.story'))).toEqual([]);
    app.expectNoErrors();
  });

  test("question mode asks the story's own questions and keeps the answers in the link", async ({ page }) => {
    const quiz = new QuizPage(page);
    // Step 7's lead-in is the stop of the story's second question ("which Pod is evicted next").
    await quiz.goto('?story=node-pressure&quiz=1&step=7&speed=0.1');
    await expect(quiz.questionHeading(2, 5)).toBeVisible();
    // A story's question hides everything that could tell.
    await expect(page.locator('html')).toHaveAttribute('data-quiz-conceal', 'narration track inspector fleet');
    await expect(quiz.narration).toBeHidden();
    await quiz.option('besteffort-dvndt, the BestEffort Pod using about 10Mi').check();
    await quiz.check.click();
    await expect(quiz.status).toContainText('Right.');
    await expect(quiz.status).toContainText('priority decides before usage');
    await quiz.expectProgressParam('-r---');
    expect(quiz.params().get('story')).toBe('node-pressure');
    // A shared link shares the answers.
    const shared = quiz.params();
    shared.set('autoplay', '0');
    await quiz.goto(`./?${shared.toString()}`);
    await expect(quiz.progress).toHaveText('Questions: 1 of 5 answered, 1 right');
    quiz.expectNoErrors();
  });

  test('a story in English only is told in English in the Japanese page, which says so', async ({ page }) => {
    const text = [
      'nodeline-story=1',
      'id=plain',
      'title=Only%20English',
      'summary=S',
      'machine=node-1',
      'duration=2m',
      'step=at:30s',
      'step.title=One%20node%20registered',
      'step.text=The%20kubelet%20registered%20the%20Node.',
    ].join('\n');
    await page.route('**/stories/plain.story', (route) => route.fulfill({ contentType: 'text/plain', body: text }));
    const app = new AppPage(page);
    await app.goto('?story=plain&lang=ja&autoplay=0');
    const panel = narration(page, 'One node registered');
    await expect(panel).toContainText('このストーリーは英語だけで書かれています。');
    await expect(panel).toHaveAttribute('lang', 'en');
    await expect(panel).toContainText('The kubelet registered the Node.');
    // A story without questions has no question mode.
    await expect(page.getByRole('button', { name: '問題', exact: true })).toBeHidden();
    app.expectNoErrors();
  });
});
