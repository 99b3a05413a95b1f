import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHAPTERS } from '../pages/chapters';
import { anyNodeCard, nodeCardName, stepFacts } from '../pages/step-facts';
import { baseUrl, expect, test } from './fixtures';
import { CSP_REPORTS, type Locator, PROVOKED, Reader } from './reader';
import { Driver } from './webdriver';

// A reader's journeys, once per engine (Firefox ESR, WebKitGTK). Every test ends by checking
// that the page had no uncaught error, no console error and no Content-Security-Policy
// violation; the server's own report of violations is checked by xtask after the run. The
// tests are independent: a failure in one does not skip the others (the worker then starts a
// fresh driver and browser for the rest).

test.describe('a reader, in every engine', () => {
  for (const chapter of CHAPTERS) {
    test(`${chapter.id}: every step paused shows its moment; from a linked step it plays to its end`, async ({ reader }) => {
      // A chapter link lands on step 1's moment; "Next step", paused, on each step's moment,
      // where the stage shows what the step names (pages/step-facts.json: the Nodes' cards and
      // the zones' states, the cheap part of what specs/steps.spec.ts checks in Chromium).
      await reader.open(`./?chapter=${chapter.id}&autoplay=0&speed=60`);
      for (const s of stepFacts(chapter.id)) {
        if (s.step > 1) {
          await reader.bar.getByRole('button', { name: 'Next step' }).click();
        }
        await reader.stepOf.expectText(`Step ${s.step} of ${chapter.steps}`);
        await reader.expectClock((await reader.marker(s.step).attribute('data-clock')) as string);
        for (const f of s.facts) {
          if (f.zone !== undefined) {
            await reader.root.locator(`.fleet-svg g.zone[data-zone="${f.zone}"] .zone-state`).expectText(f.state!);
          } else if (f.node !== undefined) {
            const name = f.exists === false ? anyNodeCard(f.node) : nodeCardName(f);
            await reader.stage.getByRole('group', { name }).expectCount(f.exists === false ? 0 : 1);
          }
        }
      }
      await reader.play.expectVisible();
      await reader.open(`./?chapter=${chapter.id}&step=2&autoplay=0&speed=60`);
      await reader.chapterLink(chapter.n).expectAttribute('aria-current', 'page');
      await reader.status.expectText(new RegExp(`^Step 2 of ${chapter.steps}: `));
      await reader.stepOf.expectText(`Step 2 of ${chapter.steps}`);
      await reader.expectClock((await reader.marker(2).attribute('data-clock')) as string);
      await reader.play.click();
      await reader.pause.expectVisible();
      await expect
        .poll(() => reader.stepOf.text(), { timeout: 100_000 })
        .toBe(`Step ${chapter.steps} of ${chapter.steps}`);
      await reader.expectNoProblems();
    });
  }

  test('Kill kubelet: NotReady, Unknown and the unreachable taints; Start kubelet: Ready, no taints', async ({ reader }) => {
    await reader.open('./?chapter=registration&step=6&autoplay=0&speed=10');
    await reader.nodeStatus.expectText('Ready');
    await reader.conditionCell('Ready', 0).expectText('True');
    await reader.conditionCell('Ready', 3).expectText('KubeletReady');
    await reader.inspector.locator('p.empty').expectText('none');

    await reader.action('Kill kubelet').click();
    await reader.action('Kill kubelet').expectAttribute('aria-disabled', 'true');
    await reader.forkNotice.expectContains('Your actions: kill-kubelet@1m30s');
    await reader.play.click();
    await expect.poll(() => reader.nodeStatus.text(), { timeout: 30_000 }).toBe('NotReady');
    await reader.conditionCell('Ready', 0).expectText('Unknown');
    await reader.conditionCell('Ready', 3).expectText('NodeStatusUnknown');
    await reader.conditionCell('Ready', 4).expectText('Kubelet stopped posting node status.');
    await expect
      .poll(() => reader.inspector.locator('table.taints tbody tr:not(.head)').texts(), { timeout: 30_000 })
      // node-1 is the cluster's only node: with no Ready node left the controller is in full
      // disruption mode and applies no NoExecute taint (docs/kubernetes-notes.md, master disruption mode).
      .toEqual([expect.stringMatching(/^node\.kubernetes\.io\/\s*unreachable\s+NoSchedule\s/)]);
    await reader.stage.getByRole('group', { name: 'node-1: kubelet stopped' }).expectCount(1);

    await reader.action('Start kubelet').click();
    await expect.poll(() => reader.conditionCell('Ready', 3).text(), { timeout: 30_000 }).toBe('KubeletReady');
    await reader.nodeStatus.expectText('Ready');
    await expect.poll(() => reader.inspector.locator('table.taints').count(), { timeout: 30_000 }).toBe(0);
    await reader.forkNotice.expectContains('kill-kubelet@1m30s,start-kubelet@');
    await reader.expectNoProblems();
  });

  test('scrubbing the timeline seeks; playing resumes after a drag', async ({ reader }) => {
    await reader.open('./?chapter=node-failure&autoplay=0');
    const end = Number(await reader.slider.attribute('aria-valuemax'));
    expect(end).toBe(540);
    await scrub(reader, 0.1, 0.75);
    await expect.poll(() => reader.clockSeconds()).toBeGreaterThan(end * 0.75 - 10);
    expect(await reader.clockSeconds()).toBeLessThan(end * 0.75 + 10);
    await reader.slider.expectFocused();
    await reader.play.expectVisible();

    await reader.play.click();
    await reader.pause.expectVisible();
    await scrub(reader, 0.75, 0.25);
    await expect.poll(() => reader.clockSeconds()).toBeLessThan(end * 0.25 + 10);
    await reader.pause.expectVisible();
    await reader.expectNoProblems();
  });

  test('keyboard shortcuts: Space, arrows, speed keys and the shortcut sheet', async ({ reader }) => {
    await reader.open('./?chapter=node-failure&t=0&autoplay=0');
    const step1 = (await reader.marker(1).attribute('data-clock')) as string;
    const step2 = (await reader.marker(2).attribute('data-clock')) as string;
    await reader.main.focus();
    await reader.press('Space');
    await reader.pause.expectVisible();
    await reader.press('Space');
    await reader.play.expectVisible();
    await reader.press('ArrowRight');
    await reader.expectClock(step1);
    await reader.press('ArrowRight');
    await reader.expectClock(step2);
    await reader.press('ArrowLeft');
    await reader.expectClock(step1);

    await reader.speedChoice.expectText('1×');
    await reader.press('+');
    await reader.speedChoice.expectText('2×');
    await reader.press(']');
    await reader.speedChoice.expectText('5×');
    await reader.press('[');
    await reader.speedChoice.expectText('2×');

    const next = reader.bar.getByRole('button', { name: 'Next step' });
    await next.focus();
    await reader.press('?');
    await reader.sheet.expectVisible();
    await reader.sheet.getByRole('button', { name: 'Close' }).expectFocused();
    await reader.press('Tab');
    await reader.sheet.getByRole('button', { name: 'Close' }).expectFocused();
    await reader.press('Escape');
    await reader.sheet.expectCount(0);
    await next.expectFocused();
    await reader.expectNoProblems();
  });

  test("the inspector's tabs, with the arrow keys, and the kubectl prompt", async ({ reader }) => {
    await reader.open('./?chapter=registration&step=6&autoplay=0');
    await reader.tab('Node').expectAttribute('aria-selected', 'true');
    await reader.tab('Node').focus();
    await reader.press('ArrowRight');
    await reader.tab('Lease').expectFocused();
    await reader.tab('Lease').expectAttribute('aria-selected', 'true');
    await reader.openPanel.expectContains('HolderIdentity');
    await reader.press('End');
    await reader.tab('Events').expectFocused();
    await reader.press('Home');
    await reader.tab('Node').expectFocused();
    for (const [tab, text] of [
      ['Pods', 'demo-'],
      ['Events', 'NodeReady'],
      ['YAML', 'apiVersion: v1'],
    ] as const) {
      await reader.tab(tab).click();
      await reader.tab(tab).expectAttribute('aria-selected', 'true');
      await reader.openPanel.expectContains(text);
    }

    await reader.tab('kubectl').click();
    await reader.openPanel.expectContains('Run a command');
    const prompt = reader.inspector.getByRole('textbox', { name: 'kubectl command' });
    await prompt.fill('kubectl get nodes');
    await reader.press('Enter');
    const output = reader.inspector.locator('pre.kubectl-out');
    await expect
      .poll(() => output.innerText())
      .toBe('$ kubectl get nodes\nNAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   90s   v1.34.1\n');
    await prompt.fill('get node node-2');
    await reader.press('Enter');
    await output.locator('.stderr').expectText('Error from server (NotFound): nodes "node-2" not found');
    await reader.expectNoProblems();
  });

  test('the language switch keeps chapter, step and time; the theme follows the link', async ({ reader }) => {
    await reader.open('./?chapter=node-failure&step=4&autoplay=0');
    const before = await reader.clockSeconds();
    await reader.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: '日本語' }).click();
    await expect.poll(() => reader.session.execute<string>('return document.documentElement.lang;')).toBe('ja');
    await reader.probe();
    await reader.stepOf.expectText('ステップ 4 / 6');
    await reader.status.expectText(/^ステップ 4 \/ 6: /);
    expect(await reader.session.url()).toMatch(/[?&]lang=ja(&|$)/);
    await reader.getByRole('navigation', { name: '言語' }).getByRole('link', { name: 'English' }).click();
    await expect.poll(() => reader.session.execute<string>('return document.documentElement.lang;')).toBe('en');
    await reader.probe();
    await reader.status.expectText(/^Step 4 of 6: /);
    expect(await reader.clockSeconds()).toBe(before);

    const background = () => reader.session.execute<string>('return getComputedStyle(document.body).backgroundColor;');
    await reader.open('./?chapter=node-failure&step=4&autoplay=0&theme=light');
    const light = await background();
    await reader.open('./?chapter=node-failure&step=4&autoplay=0&theme=dark');
    await expect.poll(() => reader.session.execute<string>('return document.documentElement.dataset.theme;')).toBe('dark');
    const dark = await background();
    expect(dark).not.toBe(light);
    expect(luminance(dark)).toBeLessThan(luminance(light));
    await reader.expectNoProblems();
  });

  test('reduced motion: packets wait at their destination with their answer', async ({ reader, driver }) => {
    // At 10.8 s the kubelet's first Lease lookup (sent at 10.76 s) has just left.
    const query = './?chapter=registration&t=10.8s&autoplay=0';
    const packet = (r: Reader, text: RegExp) => r.stage.locator('[data-packet]').getByText(text);
    await reader.open(query);
    await packet(reader, /^GET …\/leases\/node-1$/).expectCount(1);
    await packet(reader, /^GET …\/leases\/node-1 404$/).expectCount(0);
    await reader.expectNoProblems();

    // The engine's own reduced-motion setting (Firefox: a preference; WebKitGTK: GTK's
    // animations setting), in a browser of its own.
    // (A driver of its own too: geckodriver runs one session at a time.)
    const reduced = await Driver.start(driver.engine, { reducedMotion: true });
    const session = await reduced.newSession({ reducedMotion: true });
    try {
      const still = new Reader(session, baseUrl());
      await still.open(query);
      expect(await session.execute<boolean>("return matchMedia('(prefers-reduced-motion: reduce)').matches;")).toBe(true);
      await packet(still, /^GET …\/leases\/node-1 404$/).expectCount(1);
      await still.expectNoProblems();
    } finally {
      await session.close();
      await reduced.stop();
    }
  });

  test('embed mode: the example host page and the postMessage protocol', async ({ reader }) => {
    await reader.session.navigate(new URL('./public/embed-example.html', baseUrl()).href);
    await reader.probe();
    const section = (n: number) => reader.getByRole('region', { name: new RegExp(`^Chapter ${n}:`) });
    const hostStatus = (n: number) => section(n).getByRole('status');
    await hostStatus(1).expectText('Step 1 of 6 (registration), paused');
    await hostStatus(2).expectText('Step 1 of 6 (node-failure), paused');

    // resize: each iframe is as tall as the document in it.
    for (const n of [1, 2]) {
      const iframe = section(n).locator('iframe');
      await reader.enterFrame(iframe);
      await reader.getByRole('banner').expectCount(0);
      await reader.bar.expectVisible();
      await reader.expectNoProblems();
      await reader.leaveFrame();
      // The document's height is read again at every try, as the Chromium suite does: the embed
      // may still be laying itself out (a slow machine), and the iframe follows what it reports.
      await expect
        .poll(async () => {
          await reader.enterFrame(iframe);
          const content = await reader.session.execute<number>('return Math.ceil(document.documentElement.getBoundingClientRect().height);');
          await reader.leaveFrame();
          return Math.abs((await iframe.boundingBox()).height - content);
        })
        .toBeLessThanOrEqual(3);
    }

    // play, pause and goto from the host's controls; state comes back to the host's status line.
    await section(2).getByRole('button', { name: 'Play' }).click();
    await hostStatus(2).expectContains('playing');
    await section(2).getByRole('button', { name: 'Pause' }).click();
    await hostStatus(2).expectContains('paused');
    await section(1).getByRole('spinbutton', { name: 'Step' }).fill('3');
    await section(1).getByRole('button', { name: 'Go to step' }).click();
    await hostStatus(1).expectText('Step 3 of 6 (registration), paused');

    // A third embed that names another origin as its parent's: it obeys nothing from this one.
    // (localhost and 127.0.0.1 are two origins of the same server.)
    const foreign = new URL(baseUrl());
    foreign.hostname = foreign.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
    await reader.session.execute<void>(
      `const f = document.createElement('iframe');
       f.title = 'foreign';
       f.src = '../?embed=1&chapter=registration&autoplay=0&origin=' + encodeURIComponent(arguments[0]);
       document.querySelector('main').append(f);`,
      foreign.origin,
    );
    const third = reader.getByRole('main').locator('iframe[title="foreign"]');
    await reader.enterFrame(third);
    await reader.status.expectText(/^Step 1 of 6: /);
    await reader.session.execute<void>('window.__got = 0; window.addEventListener("message", () => { window.__got += 1; });');
    await reader.leaveFrame();
    await reader.session.execute<void>(
      `const frames = document.querySelectorAll('iframe');
       for (const m of [{ type: 'nodeline:goto', step: 4 }, { type: 'nodeline:play' }]) {
         frames[2].contentWindow.postMessage(m, '*');
         frames[0].contentWindow.postMessage(m, '*');
       }`,
    );
    await hostStatus(1).expectText('Step 4 of 6 (registration), playing');
    await section(1).getByRole('button', { name: 'Pause' }).click();
    await reader.enterFrame(third);
    await expect.poll(() => reader.session.execute<number>('return window.__got;')).toBe(2);
    await reader.settle();
    await reader.status.expectText(/^Step 1 of 6: /);
    await reader.play.expectVisible();
    await reader.expectNoProblems();
    await reader.leaveFrame();
    await reader.expectNoProblems();
  });

  test('nodeline.html from file://', async ({ reader }) => {
    const dir = process.env.NODELINE_BUNDLE_DIR;
    expect(dir, 'NODELINE_BUNDLE_DIR').toBeTruthy();
    const url = `${pathToFileURL(path.join(dir as string, 'nodeline.html')).href}?chapter=node-failure&step=2&autoplay=0`;
    await reader.open(url);
    await reader.status.expectText(/^Step 2 of 6: /);
    await reader.getByRole('heading', { level: 1 }).expectText('nodeline');
    await reader.play.click();
    await reader.pause.expectVisible();
    await expect.poll(() => reader.clockSeconds()).toBeGreaterThanOrEqual(100);
    await reader.pause.click();
    await reader.chapterLink(3).click();
    await reader.chapterLink(3).expectAttribute('aria-current', 'page');
    await reader.expectNoProblems();
  });

  test('the static pages: a step, its neighbours, another chapter and the other language, with no script', async ({ reader }) => {
    // The pages readers without JavaScript get (index.html's <noscript> links to them): plain
    // links between pages, each page its step's stage and text.
    const visit = async (rel: string) => {
      await reader.session.navigate(new URL(rel, reader.baseUrl).href);
      await reader.probe();
    };
    const narration = reader.root.locator('section.narration');
    const title = narration.getByRole('heading', { level: 2 });
    const follow = async (link: Locator, page: RegExp) => {
      await link.click();
      await expect.poll(() => reader.session.execute<string>('return location.pathname;')).toMatch(page);
      await reader.probe();
    };
    await visit('./steps/node-failure.en.1.html');
    await title.expectText('Two nodes, two heartbeats');
    await reader.stage.expectVisible();
    await follow(reader.main.getByRole('link', { name: 'Next step' }), /node-failure\.en\.2\.html$/);
    await narration.locator('.step-of').expectText('Step 2 of 6');
    await follow(
      reader.getByRole('navigation', { name: 'Steps of this chapter' }).getByRole('link', { name: 'The grace period runs out: Unknown' }),
      /node-failure\.en\.3\.html$/,
    );
    await title.expectText('The grace period runs out: Unknown');
    await narration.getByRole('link', { name: 'Play from this step' }).expectAttribute('href', '../?chapter=node-failure&step=3&lang=en');
    await follow(reader.chapterLink(3), /kubelet-restart\.en\.1\.html$/);
    await reader.chapterLink(3).expectAttribute('aria-current', 'page');
    await follow(reader.getByRole('navigation', { name: 'Language' }).getByRole('link', { name: '日本語' }), /kubelet-restart\.ja\.1\.html$/);
    await narration.locator('.step-of').expectText('ステップ 1 / 4');
    await reader.expectNoProblems();
  });

  test('the policy is enforced and its violations are seen, by the page and by the server', async ({ reader }) => {
    // On the example host page: the app rewrites its own address (dropping the marker), and
    // WebKit's report names the document's address at the time of the violation.
    await reader.open(`./public/embed-example.html?${PROVOKED}=1`);
    await reader.expectNoProblems();
    const agent = await reader.session.execute<string>('return navigator.userAgent;');
    const ran = await reader.session.execute<boolean>(
      `const script = document.createElement('script');
       script.textContent = 'window.__inlineRan = true';
       document.body.append(script);
       return window.__inlineRan === true;`,
    );
    expect(ran, 'an inline script runs').toBe(false);
    await expect.poll(() => reader.problems()).toEqual([expect.stringMatching(/^CSP: script-src(-elem)? blocked inline/)]);
    await expect
      .poll(async () => {
        const all = (await (await fetch(new URL(CSP_REPORTS, baseUrl()))).json()) as { agent: string; report: string }[];
        return all.filter((r) => r.agent === agent && r.report.includes(PROVOKED)).length;
      })
      .toBeGreaterThan(0);
  });

  test('screenshots of two steps', async ({ reader }) => {
    for (const [name, query] of [
      ['node-failure-step4', './?chapter=node-failure&step=4&autoplay=0'],
      ['registration-step6-dark', './?chapter=registration&step=6&autoplay=0&theme=dark'],
    ]) {
      await reader.open(query);
      await reader.status.expectText(/^Step \d of \d: /);
      await reader.settle();
      await reader.screenshot(name);
    }
    await reader.expectNoProblems();
  });
});

/** Drags the playhead from `from` to `to` (fractions of the track's width). */
async function scrub(reader: Reader, from: number, to: number): Promise<void> {
  const box = await reader.slider.boundingBox();
  const y = box.y + box.height / 2;
  const at = (f: number) => ({ x: box.x + box.width * f, y });
  await reader.session.drag([at(from), at((from + to) / 2), at(to)]);
}

/** Relative luminance of a CSS `rgb(…)` colour, enough to tell dark from light. */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
