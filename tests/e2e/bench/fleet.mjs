// The fleet chapter's figures in `cargo xtask bench` (issue 14): for `&nodes=150` and
// `&nodes=1000`, the time from navigation until the fleet is on screen (the default link, and a
// link into the story at 14 min), until every control is mounted, until the whole story is
// computed (every step marker placed), the long tasks meanwhile, and the frame cost while
// playing at 60x once it is computed.
// Measurements only: budgets are read off the printed figures.

const STEPS = 6;

/** Loads `url` and measures when the fleet shows and when the whole story is computed. */
async function load(browser, url, instrument, round) {
  const context = await browser.newContext({ viewport: { width: 1920, height: 1080 } });
  const page = await context.newPage();
  await page.addInitScript(instrument);
  // Long tasks from the start of the page.
  await page.addInitScript(() => {
    window.__recording = true;
  });
  await page.goto(url);
  // The app's, not the still view's (`data-still`: a fleet's step as pre-rendered, shown first).
  await page.waitForFunction(() => document.querySelector('main:not([data-still]) #fleet-desc')?.textContent.includes('Zone eu-west-1c'), null, {
    timeout: 120_000,
    polling: 'raf',
  });
  const shownMs = await page.evaluate(() => performance.now());
  // Looked for at every frame (as the fleet's showing is): a 100 ms poll added up to 100 ms.
  await page.waitForFunction((steps) => document.querySelectorAll('main:not([data-still]) .tl-marker:not(.unreached):not(.pending)').length >= steps, STEPS, {
    timeout: 180_000,
    polling: 'raf',
  });
  // Every control mounted: the page's own mark (`app::boot`), for the first interaction.
  const r = await page.evaluate(() => ({
    now: performance.now(),
    longTasks: window.__longTasks,
    interactive: performance.getEntriesByName('nodeline-interactive')[0]?.startTime ?? null,
  }));
  await page.evaluate(() => {
    window.__recording = false;
  });
  return {
    context,
    page,
    shownMs: round(shownMs, 0),
    interactiveMs: r.interactive === null ? null : round(r.interactive, 0),
    computedMs: round(r.now, 0),
    longTasksWhileComputing: r.longTasks,
  };
}

/** Every figure for a fleet of `nodes`. */
async function fleetOf(browser, appUrl, nodes, h) {
  const out = { nodes };
  {
    const l = await load(browser, `${appUrl}?chapter=zone-outage&nodes=${nodes}&autoplay=0&speed=60`, h.instrument, h.round);
    Object.assign(out, {
      shownMs: l.shownMs,
      interactiveMs: l.interactiveMs,
      computedMs: l.computedMs,
      longTasksWhileComputing: l.longTasksWhileComputing,
    });
    out.frames60x = await h.playFrames(l.page, { realMs: 15_000 });
    await l.context.close();
  }
  {
    const l = await load(browser, `${appUrl}?chapter=zone-outage&nodes=${nodes}&t=14m&autoplay=0`, h.instrument, h.round);
    Object.assign(out, { at14mShownMs: l.shownMs, at14mComputedMs: l.computedMs });
    await l.context.close();
  }
  return out;
}

/** The fleet figures at 150 and 1,000 nodes; `h` holds bench.mjs's helpers. */
export async function benchFleet(browser, appUrl, h) {
  const fleets = [];
  for (const nodes of [150, 1000]) {
    const f = await fleetOf(browser, appUrl, nodes, h);
    console.log(`fleet ${nodes}: ${JSON.stringify(f)}`);
    fleets.push(f);
  }
  return fleets;
}

/** The lines bench.mjs prints. */
export function fleetLines(fleets) {
  return fleets.map(
    (f) =>
      `fleet of ${f.nodes} nodes: shown ${f.shownMs} ms after navigation (t=14m: ${f.at14mShownMs} ms), every control mounted at ${f.interactiveMs} ms, story computed at ${f.computedMs} ms (t=14m: ${f.at14mComputedMs} ms), long tasks meanwhile ${f.longTasksWhileComputing}; playing at 60x (${f.frames60x.frames} frames): median ${f.frames60x.medianMs} ms, p99 ${f.frames60x.p99Ms} ms, max ${f.frames60x.maxMs} ms, long tasks ${f.frames60x.longTasks}`,
  );
}
