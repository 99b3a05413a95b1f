import { expect, test } from '@playwright/test';
import { EmbedHostPage } from '../pages/embed-host';
import { settle } from '../pages/shipping';
import { rng } from '../pages/random';

/**
 * postMessage fuzzing in embed mode: 400 generated messages (seeded) that are not well-formed
 * commands, from the parent and from another window, change nothing and throw nothing.
 */

/** A random value that is never a well-formed command (it may look like one). */
function hostile(r: () => number, depth = 0): unknown {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)];
  const types = ['nodeline:goto', 'nodeline:GOTO', 'nodeline:', 'nodeline:play ', ' nodeline:pause', 'play', 'nodeline:seek', 'nodeline:query:x', '<script>', '__proto__', 'constructor', ''];
  const scalars: unknown[] = [null, undefined, true, 0, -1, 1e308, -0, Number.NaN, Infinity, '', 'x'.repeat(20_000), 'ノード', '<img src=x onerror=alert(1)>'];
  switch (Math.floor(r() * 7)) {
    case 0:
      return pick(scalars);
    case 1:
      return pick(types);
    case 2:
      // A goto with a step that is not a whole step number of the chapter.
      return { type: 'nodeline:goto', step: pick([0, -3, 99, 2.5, '3', null, [], {}, Number.NaN, 1e20]) };
    case 3:
      return { type: pick(types), step: pick(scalars) };
    case 4:
      return depth < 3 ? [hostile(r, depth + 1), hostile(r, depth + 1)] : [];
    case 5: {
      const o: Record<string, unknown> = {};
      for (let i = 0; i < 1 + Math.floor(r() * 4); i++) {
        o[pick(['type', 'step', 'height', 'chapter', '__proto__', 'toString', 'x'])] = depth < 3 ? hostile(r, depth + 1) : 1;
      }
      if (o.type === 'nodeline:play' || o.type === 'nodeline:pause' || o.type === 'nodeline:query') {
        o.type = 'nodeline:play!';
      }
      return o;
    }
    default:
      return Array.from({ length: Math.floor(r() * 64) }, () => Math.floor(r() * 256));
  }
}

test('postMessage fuzzing: 400 hostile messages from the parent and another window change nothing', async ({ page }) => {
  test.setTimeout(120_000);
  const host = new EmbedHostPage(page);
  const { one, clock } = await host.openAtRest();
  const frame = await host.frame(1);
  const errorsBefore = await frame.evaluate(() => {
    const w = window as unknown as { __errors: string[] };
    w.__errors = [];
    window.addEventListener('error', (e) => w.__errors.push(String(e.message)));
    window.addEventListener('unhandledrejection', (e) => w.__errors.push(String(e.reason)));
    return w.__errors.length;
  });

  const r = rng(20261202);
  for (let i = 0; i < 400; i++) {
    const m = hostile(r);
    if (i % 4 === 3) {
      // From the other embed: not the parent.
      const two = await host.frame(2);
      await two.evaluate((msg) => window.parent.frames[0].postMessage(msg, '*'), m as never);
    } else {
      await host.post(1, m);
    }
  }
  await settle(frame);
  await expect(one.play).toBeVisible();
  await expect(one.clock).toHaveText(clock);
  await one.expectStep(1);
  expect(await frame.evaluate(() => (window as unknown as { __errors: string[] }).__errors)).toHaveLength(errorsBefore);

  // Still listening: a well-formed command works afterwards.
  await host.post(1, { type: 'nodeline:goto', step: 2 });
  await one.expectStep(2);
  host.expectNoErrors();
});
