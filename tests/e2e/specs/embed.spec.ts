import { expect, test, type APIRequestContext } from '@playwright/test';
import { EmbedHostPage } from '../pages/embed-host';
import { EmbedView, proxyBuild, recordRequests, settle } from '../pages/shipping';

const DOCS = '/docs/k8s/nodeline/';

/** Where the made-up docs site finds nodeline (a proxy of the test server). */
const NODELINE = 'http://nodeline.example';

/**
 * The example host page as a docs site would serve it: its relative URLs (style, script, the
 * iframes) resolve to nodeline's own host through a <base>, and each iframe names `namedOrigin`
 * with `&origin=`.
 */
async function hostPageFor(request: APIRequestContext, namedOrigin: string): Promise<string> {
  const html = await (await request.get('public/embed-example.html')).text();
  const withBase = html.replace('<head>', `<head>\n<base href="${NODELINE}/public/" />`);
  const named = withBase.replaceAll('autoplay=0"', `autoplay=0&amp;origin=${encodeURIComponent(namedOrigin)}"`);
  expect(named.match(/&amp;origin=/g)?.length, 'both iframes name the origin').toBe(2);
  return named;
}

/** Installs a listener in embed `n` that counts every message it receives (after the app's own). */
async function countMessagesIn(host: EmbedHostPage, n: number): Promise<() => Promise<number>> {
  const frame = await host.frame(n);
  await frame.evaluate(() => {
    const w = window as unknown as { __got: number };
    w.__got = 0;
    window.addEventListener('message', () => {
      w.__got += 1;
    });
  });
  return () => frame.evaluate(() => (window as unknown as { __got: number }).__got);
}

test.describe('embed', () => {
  test('the example page embeds two chapters whose iframes take the height they report', async ({ page }) => {
    const host = new EmbedHostPage(page);
    const requests = recordRequests(page);
    await host.open(DOCS);
    await expect(host.hostStatus(1)).toHaveText('Step 1 of 6 (registration), paused');
    await expect(host.hostStatus(2)).toHaveText('Step 1 of 6 (node-failure), paused');

    for (const n of [1, 2]) {
      const embed = host.embed(n);
      // Chrome-less: the story, the stage and the timeline; no page header, sandbox or inspector.
      await expect(embed.main).toBeVisible();
      await expect(host.frameLocator(n).getByRole('banner')).toHaveCount(0);
      // The page's one h1 is for screen readers: it names the chapter, as the header would.
      await expect(host.frameLocator(n).getByRole('heading', { level: 1 })).toHaveText(/ — nodeline$/);
      await expect(host.frameLocator(n).getByRole('region', { name: 'Playback' })).toBeVisible();
      await expect(host.frameLocator(n).getByRole('region', { name: 'Sandbox' })).toHaveCount(0);
      await expect(host.frameLocator(n).getByRole('region', { name: 'Inspector' })).toHaveCount(0);

      // The iframe is exactly as tall as the document in it, which has nothing left to scroll.
      const frame = await host.frame(n);
      await expect
        .poll(async () => {
          const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
          return Math.abs((await host.iframeHeight(n)) - content);
        })
        .toBeLessThanOrEqual(1);
      const reported = (await host.received(n)).filter((m) => m.type === 'nodeline:resize');
      expect(reported.length).toBeGreaterThan(0);
      expect(reported.at(-1)?.height).toBe(Math.round(await host.iframeHeight(n)));
      expect(await frame.evaluate(() => document.documentElement.scrollHeight - window.innerHeight)).toBeLessThanOrEqual(1);
    }
    // In a docs column (600 px and wider) the embed fills the frame it is given, the 40rem (640 px)
    // the host's style sheet starts with, so the height it reports keeps the frame as it is.
    expect(await host.iframeHeight(1)).toBe(640);

    // A phone's window: the embed stacks as on a phone, as tall as its content, and reports it.
    const before = await host.iframeHeight(1);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect.poll(() => host.iframeHeight(1)).not.toBe(before);
    const frame = await host.frame(1);
    await expect
      .poll(async () => {
        const content = await frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
        return Math.abs((await host.iframeHeight(1)) - content);
      })
      .toBeLessThanOrEqual(1);

    const origin = new URL(page.url()).origin;
    expect(requests.filter((u) => !u.startsWith(`${origin}/`))).toEqual([]);
    host.expectNoErrors();
  });

  test('play, pause and go-to-step from the parent drive the embed, and it says so', async ({ page }) => {
    const host = new EmbedHostPage(page);
    await host.open();
    const one = host.embed(1);
    const two = host.embed(2);
    await expect(one.play).toBeVisible();
    await expect(host.hostStatus(1)).toContainText('paused');

    await host.hostPlay(1).click();
    await expect(one.pause).toBeVisible();
    await expect(host.hostStatus(1)).toContainText('playing');
    await host.hostPause(1).click();
    await expect(one.play).toBeVisible();
    await expect(host.hostStatus(1)).toContainText('paused');
    const oneClock = await one.clock.innerText();

    await host.hostStep(2).fill('4');
    await host.hostGoto(2).click();
    await two.expectStep(4);
    await expect(host.hostStatus(2)).toHaveText('Step 4 of 6 (node-failure), paused');
    await expect(two.play).toBeVisible();
    // A message goes to one embed only.
    await expect(one.clock).toHaveText(oneClock);
    await expect(one.play).toBeVisible();

    const states = (await host.received(2)).filter((m) => m.type === 'nodeline:state');
    expect(states.at(-1)).toEqual({ type: 'nodeline:state', chapter: 'node-failure', step: 4, steps: 6, playing: false });
    host.expectNoErrors();
  });

  test('malformed messages, and messages from any window but the parent, change nothing', async ({ page }) => {
    const host = new EmbedHostPage(page);
    const { one, clock } = await host.openAtRest();
    const got = await countMessagesIn(host, 1);

    const malformed: unknown[] = [
      'nodeline:play',
      null,
      42,
      ['nodeline:play'],
      { type: 'play' },
      { type: 'NODELINE:PLAY' },
      { type: { toString: 'nodeline:play' } },
      { type: 'nodeline:goto' },
      { type: 'nodeline:goto', step: '3' },
      { type: 'nodeline:goto', step: 2.5 },
      { type: 'nodeline:goto', step: 0 },
      { type: 'nodeline:goto', step: 99 },
      { type: 'nodeline:goto', step: Number.NaN },
      { type: 'nodeline:seek', step: 3 },
      { type: 'nodeline:play'.repeat(10_000) },
    ];
    for (const m of malformed) {
      await host.post(1, m);
    }
    // The other embed's window, and the embed's own window, are not its parent.
    const two = await host.frame(2);
    await two.evaluate(() => window.parent.frames[0].postMessage({ type: 'nodeline:play' }, '*'));
    await two.evaluate(() => window.parent.frames[0].postMessage({ type: 'nodeline:goto', step: 3 }, '*'));
    const oneFrame = await host.frame(1);
    await oneFrame.evaluate(() => window.postMessage({ type: 'nodeline:play' }, '*'));

    await expect.poll(got).toBe(malformed.length + 3);
    await settle(oneFrame);
    await expect(one.play).toBeVisible();
    await expect(one.clock).toHaveText(clock);
    await one.expectStep(1);

    // The channel itself works: the parent's well-formed message is obeyed.
    await host.post(1, { type: 'nodeline:goto', step: 3 });
    await one.expectStep(3);
    host.expectNoErrors();
  });

  test('an embed that names its origin answers and obeys that origin only', async ({ page, request, baseURL }) => {
    const docs = 'http://docs.example';
    const html = await hostPageFor(request, docs);
    await proxyBuild(page, NODELINE, baseURL as string);
    for (const origin of [docs, 'http://evil.example']) {
      await page.route(`${origin}/**`, (route) => route.fulfill({ body: html, contentType: 'text/html; charset=utf-8' }));
    }

    // The named origin: answered (status and height) and obeyed.
    const good = new EmbedHostPage(page);
    await good.recordMessages();
    await page.goto(`${docs}/guide/nodes.html`);
    await expect(good.hostStatus(1)).toHaveText('Step 1 of 6 (registration), paused');
    await good.hostPlay(1).click();
    await expect(good.embed(1).pause).toBeVisible();
    await expect(good.hostStatus(1)).toContainText('playing');
    expect((await good.received(1)).every((m) => m.type.startsWith('nodeline:'))).toBe(true);
    // The second embed is there too before the page is left: leaving while it still fetches its
    // WebAssembly would cut that request short.
    await expect(good.hostStatus(2)).toHaveText('Step 1 of 6 (node-failure), paused');
    good.expectNoErrors();

    // Another origin, with the same page: the embed runs, but says nothing and obeys nothing.
    const evil = new EmbedHostPage(page);
    await page.goto('http://evil.example/guide/nodes.html');
    const embed = evil.embed(1);
    await expect(embed.play).toBeVisible();
    const clock = await embed.clock.innerText();
    const got = await countMessagesIn(evil, 1);
    await evil.hostPlay(1).click();
    await evil.hostStep(1).fill('3');
    await evil.hostGoto(1).click();
    await evil.post(1, { type: 'nodeline:query' });
    await expect.poll(got).toBe(3);
    const frame = await evil.frame(1);
    await settle(frame);
    await expect(embed.play).toBeVisible();
    await expect(embed.clock).toHaveText(clock);
    // Messages from one window to another arrive in order: once this one is in, any resize or
    // state message the embed had sent before it would be in too.
    await frame.evaluate(() => window.parent.postMessage({ type: 'probe' }, '*'));
    await expect.poll(async () => (await evil.received(1)).map((m) => m.type)).toEqual(['probe']);
    await expect(evil.hostStatus(1)).toHaveText('Waiting for the embed…');
    expect(await evil.iframeHeight(1)).toBe(640);
    evil.expectNoErrors();
  });

  test('key presses on the host page never reach the embed; in the embed they work', async ({ page }) => {
    const host = new EmbedHostPage(page);
    const { one, clock } = await host.openAtRest();
    await page.evaluate(() => {
      const w = window as unknown as { __keys: { key: string; prevented: boolean }[] };
      w.__keys = [];
      window.addEventListener('keydown', (e) => w.__keys.push({ key: e.key, prevented: e.defaultPrevented }));
    });
    const hostKeys = () =>
      page.evaluate(() => (window as unknown as { __keys: { key: string; prevented: boolean }[] }).__keys);

    await page.getByRole('heading', { level: 1, name: 'nodeline, embedded' }).click();
    for (const key of [' ', 'ArrowRight', ']', '?']) {
      await page.keyboard.press(key === ' ' ? 'Space' : key);
    }
    await expect.poll(hostKeys).toEqual([' ', 'ArrowRight', ']', '?'].map((key) => ({ key, prevented: false })));
    await settle(await host.frame(1));
    await expect(one.play).toBeVisible();
    await expect(one.clock).toHaveText(clock);
    await one.expectStep(1);
    await expect(host.frameLocator(1).getByRole('dialog')).toHaveCount(0);

    // With the focus in the embed, its shortcuts work, and the host sees nothing of them.
    await one.main.focus();
    await page.keyboard.press('ArrowRight');
    await one.expectStep(2);
    await page.keyboard.press('Space');
    await expect(one.pause).toBeVisible();
    expect(await hostKeys()).toHaveLength(4);
    host.expectNoErrors();
  });

  test('a direct embed link honours chapter, step, autoplay, theme and lang', async ({ page }) => {
    const host = new EmbedHostPage(page);
    await page.goto('./?embed=1&chapter=kubelet-restart&step=2&autoplay=0&theme=dark&lang=en');
    const view = new EmbedView(page);
    await expect(view.main).toBeVisible();
    await view.expectStep(2, 4);
    await expect(view.play).toBeVisible();
    await expect(page.getByRole('banner')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kubelet restart — nodeline');
    await expect(page.getByRole('region', { name: 'Sandbox' })).toHaveCount(0);
    const html = page.locator('html');
    await expect(html).toHaveAttribute('data-theme', 'dark');
    await expect(html).toHaveAttribute('lang', 'en');
    await expect(html).toHaveAttribute('data-embed', '');

    // The page keeps its address a link to what it shows, and never drops the named origin:
    // a reload keeps talking to that origin only.
    await expect(page).toHaveURL(/[?&]t=/);
    await expect(page).toHaveURL(/[?&]embed=1(&|$)/);

    await page.goto('./?embed=1&chapter=node-failure&step=3&autoplay=1&theme=light&origin=http://docs.example');
    await view.expectStep(3);
    await expect(view.pause).toBeVisible();
    await expect(html).toHaveAttribute('data-theme', 'light');
    await view.pause.click();
    await expect(page).toHaveURL(/[?&]t=/);
    await expect(page).toHaveURL(/[?&]origin=http:%2F%2Fdocs\.example(&|$)/);
    host.expectNoErrors();
  });
});
