// The page benchmark behind `cargo xtask bench`. xtask builds and serves the release site and the
// minimal Leptos baseline (both with gzip), then runs:
//   node bench.mjs APP_URL BASELINE_URL OUT_JSON APP_DIST BASELINE_DIST
// Figures go to the terminal and to OUT_JSON. Nothing here asserts budgets: the test suite checks
// the deterministic one (bytes before interactive); these are measurements.
// NODELINE_BENCH_ONLY=mobile runs only the phone figures (Lighthouse, bytes before interactive);
// NODELINE_BENCH_ONLY=fleet only the fleet chapter's (fleet.mjs).
// NODELINE_BENCH_PAGES (queries, one a line) with mobile: Lighthouse on those pages alone, each
// run's long tasks printed; NODELINE_BENCH_RUNS: Lighthouse runs per page (default 5).
import { chromium } from '@playwright/test';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { benchFleet, fleetLines } from './fleet.mjs';

const [appUrl, baselineUrl, outJson, appDist, baselineDist] = process.argv.slice(2);
if (!appUrl || !baselineUrl || !outJson || !appDist || !baselineDist) {
  console.error('usage: node bench.mjs APP_URL BASELINE_URL OUT_JSON APP_DIST BASELINE_DIST (run it through `cargo xtask bench`)');
  process.exit(2);
}
const mobileOnly = process.env.NODELINE_BENCH_ONLY === 'mobile';
const fleetOnly = process.env.NODELINE_BENCH_ONLY === 'fleet';

const LOADS = 7;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--enable-precise-memory-info', '--js-flags=--expose-gc'],
});

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : NaN;
};
const quantile = (xs, q) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))] : NaN;
};
const round = (x, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** Instruments a page before its scripts run: frame costs, long tasks, the wasm memory. */
const INSTRUMENT = () => {
  const w = window;
  w.__frames = [];
  w.__longTasks = 0;
  w.__recording = false;
  new PerformanceObserver((list) => {
    if (w.__recording) w.__longTasks += list.getEntries().length;
  }).observe({ type: 'longtask', buffered: false });
  // A frame's main-thread cost: from the animation-frame callbacks' start until a task queued
  // behind that frame's rendering runs (callbacks, microtasks, effects, style, layout, paint).
  const raf = w.requestAnimationFrame.bind(w);
  let pending = false;
  w.requestAnimationFrame = (cb) =>
    raf((ts) => {
      const start = performance.now();
      if (w.__recording && !pending) {
        pending = true;
        const ch = new MessageChannel();
        ch.port1.onmessage = () => {
          pending = false;
          w.__frames.push(performance.now() - start);
        };
        ch.port2.postMessage(0);
      }
      cb(ts);
    });
  addEventListener('TrunkApplicationStarted', (e) => {
    w.__wasmMemory = e.detail?.wasm?.memory;
  });
};

async function open(url) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(INSTRUMENT);
  const bytes = { total: 0 };
  page.on('response', (res) => {
    bytes.total += Number(res.headers()['content-length'] ?? 0);
  });
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('nodeline-interactive').length > 0);
  return { context, page, bytes };
}

async function timeToInteractive(url) {
  const times = [];
  const afterDcl = [];
  let transferred = 0;
  for (let i = 0; i < LOADS; i++) {
    const { context, page, bytes } = await open(url);
    const t = await page.evaluate(() => ({
      interactive: performance.getEntriesByName('nodeline-interactive')[0].startTime,
      dcl: performance.getEntriesByType('navigation')[0].domContentLoadedEventStart,
    }));
    times.push(t.interactive);
    afterDcl.push(t.interactive - t.dcl);
    transferred = bytes.total;
    await context.close();
  }
  // The product budget counts from DOMContentLoaded; the ratio uses the time from navigation.
  return {
    medianMs: round(median(times)),
    medianAfterDomContentLoadedMs: round(median(afterDcl)),
    allMs: times.map((t) => round(t)),
    transferredBytes: transferred,
  };
}

async function clockSeconds(page) {
  const text = await page.getByLabel('Simulated time', { exact: true }).innerText();
  const m = text.trim().match(/^T\+(?:(\d+):)?(\d+):(\d+)$/);
  return m ? (Number(m[1] ?? 0) * 60 + Number(m[2])) * 60 + Number(m[3]) : NaN;
}

/** Plays for `realMs` (or until the clock passes `untilSim` seconds) and returns frame figures. */
async function playFrames(page, { realMs, untilSim }) {
  await page.evaluate(() => {
    window.__frames = [];
    window.__longTasks = 0;
    window.__recording = true;
  });
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  const start = Date.now();
  for (;;) {
    await page.waitForTimeout(250);
    if (realMs && Date.now() - start >= realMs) break;
    if (untilSim && (await clockSeconds(page)) >= untilSim) break;
    if (Date.now() - start > 180_000) break;
    // Playback stopped by itself (the end of the story): the Pause button is gone.
    if ((await page.getByRole('button', { name: 'Pause', exact: true }).count()) === 0) break;
  }
  const r = await page.evaluate(() => {
    window.__recording = false;
    return { frames: window.__frames, longTasks: window.__longTasks };
  });
  const pause = page.getByRole('button', { name: 'Pause', exact: true });
  if ((await pause.count()) > 0) await pause.click();
  return {
    frames: r.frames.length,
    medianMs: round(median(r.frames)),
    p99Ms: round(quantile(r.frames, 0.99)),
    maxMs: round(Math.max(0, ...r.frames)),
    longTasks: r.longTasks,
    realSeconds: round((Date.now() - start) / 1000, 1),
  };
}

async function memory(page) {
  return page.evaluate(() => {
    if (window.gc) window.gc();
    return {
      jsHeapBytes: performance.memory?.usedJSHeapSize ?? null,
      wasmBytes: window.__wasmMemory?.buffer?.byteLength ?? null,
    };
  });
}


const results = { date: new Date().toISOString(), machine: {}, app: {}, baseline: {}, ratios: {} };

/** The chapters' first steps: Lighthouse's pages (every chapter, as `Chapter::id` spells them). */
const CHAPTERS = ['registration', 'node-failure', 'kubelet-restart', 'zone-outage', 'maintenance', 'node-goes-away'];
/** The other pages readers meet first (issue 37's table): a later step, the docs embed, the fleet at 1,000. */
const PAGES = {
  'node-failure 4': '?chapter=node-failure&step=4',
  'embed': '?embed=1&chapter=node-failure&step=3',
  'zone 1000': '?chapter=zone-outage&nodes=1000',
};
const LIGHTHOUSE_RUNS = Number(process.env.NODELINE_BENCH_RUNS) || 5;
/** Pages named on the command line (`cargo xtask bench --mobile-only --page QUERY`): measured alone. */
const ONLY_PAGES = (process.env.NODELINE_BENCH_PAGES ?? '').split('\n').filter((q) => q !== '');

/**
 * Lighthouse 12.8 with its default settings (mobile: a Moto G Power sized screen, simulated slow
 * 4G, 4x CPU slowdown), `runs` times on a fresh Chromium each, median of each figure.
 */
async function lighthouseMobile(url, runs = LIGHTHOUSE_RUNS) {
  const { default: lighthouse } = await import('lighthouse');
  const chromeLauncher = await import('chrome-launcher');
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const chrome = await chromeLauncher.launch({
      chromePath: '/usr/bin/chromium',
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    try {
      const { lhr } = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
      const a = (id) => lhr.audits[id]?.numericValue ?? NaN;
      const lcpItems = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items ?? [];
      samples.push({
        score: Math.round((lhr.categories.performance.score ?? 0) * 100),
        fcpMs: a('first-contentful-paint'),
        lcpMs: a('largest-contentful-paint'),
        tbtMs: a('total-blocking-time'),
        interactiveMs: a('interactive'),
        speedIndexMs: a('speed-index'),
        cls: a('cumulative-layout-shift'),
        totalBytes: a('total-byte-weight'),
        lcpElement: lcpItems[0]?.node?.selector ?? null,
        version: lhr.lighthouseVersion,
        // The main thread's long tasks as Lighthouse simulates them (start, duration, ms).
        longTasks: (lhr.audits['long-tasks']?.details?.items ?? []).map((t) => [Math.round(t.startTime), Math.round(t.duration)]),
      });
    } finally {
      await chrome.kill();
    }
  }
  const med = (k) => median(samples.map((x) => x[k]));
  return {
    runs,
    score: med('score'),
    fcpMs: round(med('fcpMs'), 0),
    lcpMs: round(med('lcpMs'), 0),
    tbtMs: round(med('tbtMs'), 0),
    interactiveMs: round(med('interactiveMs'), 0),
    speedIndexMs: round(med('speedIndexMs'), 0),
    cls: round(med('cls'), 3),
    totalBytes: med('totalBytes'),
    scores: samples.map((x) => x.score),
    tbts: samples.map((x) => Math.round(x.tbtMs)),
    longTasks: samples.map((x) => x.longTasks),
    lcpElement: samples[0].lcpElement,
    lighthouse: samples[0].version,
  };
}

/** Sizes of one built file: as served (gzip, zlib's default level) and with brotli (quality 11). */
function fileSizes(dist, path) {
  const bytes = readFileSync(join(dist, path === '' ? 'index.html' : path));
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes).length,
    brotli: brotliCompressSync(bytes, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

/**
 * The files a page fetched before its interactive mark, and all it fetched once loaded and idle
 * (a phone-sized window, so a page that loads parts on demand is measured as a phone loads it).
 */
/** The link of the step whose still file (`still/ID.LANG.N.js`, a story's `story.ID.LANG.N.js`)
 * is the largest gzip-compressed. */
function heaviestStep(dist) {
  const dir = join(dist, 'still');
  let best = null;
  for (const name of readdirSync(dir)) {
    const m = /^(story\.)?(.+)\.([a-z]+)\.(\d+)\.js\.gz$/.exec(name);
    if (!m) continue;
    const size = statSync(join(dir, name)).size;
    if (!best || size > best.size) best = { size, query: `?${m[1] ? 'story' : 'chapter'}=${m[2]}&step=${m[4]}&lang=${m[3]}` };
  }
  return best.query;
}

async function bytesBeforeInteractive(url, dist, markName = 'nodeline-interactive') {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction((name) => performance.getEntriesByName(name).length > 0, markName);
  await page.waitForLoadState('networkidle');
  const entries = await page.evaluate((name) => {
    const mark = performance.getEntriesByName(name)[0].startTime;
    const nav = performance.getEntriesByType('navigation')[0];
    const list = [{ url: nav.name, end: nav.responseEnd, served: nav.encodedBodySize }];
    for (const r of performance.getEntriesByType('resource')) list.push({ url: r.name, end: r.responseEnd, served: r.encodedBodySize });
    return { mark, list };
  }, markName);
  await context.close();
  const sum = (list) => {
    const t = { files: 0, served: 0, raw: 0, gzip: 0, brotli: 0 };
    for (const e of list) {
      const path = decodeURIComponent(new URL(e.url).pathname.replace(/^\//, ''));
      // A request the server answered 404 (the baseline's favicon.ico) transferred no file.
      if (!existsSync(join(dist, path === '' ? 'index.html' : path))) continue;
      const s = fileSizes(dist, path);
      t.files++;
      t.served += e.served;
      t.raw += s.raw;
      t.gzip += s.gzip;
      t.brotli += s.brotli;
    }
    return t;
  };
  return {
    beforeInteractive: sum(entries.list.filter((e) => e.end <= entries.mark)),
    everything: sum(entries.list),
    names: entries.list.map((e) => `${new URL(e.url).pathname.split('/').pop() || 'index.html'}${e.end <= entries.mark ? '' : ' (after)'}`),
  };
}

if (!mobileOnly && !fleetOnly) {
  
  // ---- page load
  results.app.load = await timeToInteractive(appUrl);
  results.baseline.load = await timeToInteractive(baselineUrl);
  
  // ---- frames at 1x (10 s of real time) and at the fastest speed over a simulated 10 minutes
  {
    const { context, page } = await open(`${appUrl}?chapter=node-failure&autoplay=0`);
    results.app.frames1x = await playFrames(page, { realMs: 10_000 });
    await context.close();
  }
  {
    const { context, page } = await open(`${appUrl}?chapter=node-failure&actions=create-pod@59m&autoplay=0&speed=60`);
    results.app.framesFastest = await playFrames(page, { untilSim: 600 });
    await context.close();
  }
  {
    const { context, page } = await open(baselineUrl);
    results.baseline.frames = await playFrames(page, { realMs: 10_000 });
    await context.close();
  }
  
  // ---- scrub: a key on the timeline slider until the new moment is on screen
  {
    const { context, page } = await open(`${appUrl}?chapter=node-failure&actions=create-pod@59m&autoplay=0`);
    const slider = page.getByRole('slider');
    await slider.focus();
    const times = [];
    for (const key of ['End', 'Home', 'PageDown', 'PageDown', 'End', 'PageUp', 'Home', 'End', 'PageUp', 'Home']) {
      const before = await page.getByLabel('Simulated time', { exact: true }).innerText();
      const ms = await page.evaluate(
        ({ key, before }) =>
          new Promise((resolve) => {
            const clock = document.querySelector('[aria-label="Simulated time"]');
            const t0 = performance.now();
            const done = () => requestAnimationFrame(() => resolve(performance.now() - t0));
            const obs = new MutationObserver(() => {
              if (clock.textContent !== before) {
                obs.disconnect();
                done();
              }
            });
            obs.observe(clock, { childList: true, characterData: true, subtree: true });
            document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
            setTimeout(() => {
              obs.disconnect();
              resolve(NaN);
            }, 5000);
          }),
        { key, before },
      );
      if (!Number.isNaN(ms)) times.push(ms);
    }
    results.app.scrub = { samples: times.length, medianMs: round(median(times)), maxMs: round(Math.max(0, ...times)) };
    await context.close();
  }
  
  // ---- memory after a simulated hour at the fastest speed
  {
    const { context, page } = await open(`${appUrl}?chapter=node-failure&actions=create-pod@59m&autoplay=0&speed=60`);
    const start = await memory(page);
    await playFrames(page, { untilSim: 600 });
    const tenMinutes = await memory(page);
    const hour = await playFrames(page, { untilSim: 3600 });
    const end = await memory(page);
    results.app.memory = {
      start,
      afterSim10m: tenMinutes,
      afterSim1h: end,
      growthFrom10mTo1hBytes: {
        jsHeap: end.jsHeapBytes - tenMinutes.jsHeapBytes,
        wasm: end.wasmBytes - tenMinutes.wasmBytes,
      },
      simulatedSeconds: await clockSeconds(page),
      longTasksDuringHour: hour.longTasks,
    };
    await context.close();
  }
  results.ratios = {
    timeToInteractive: round(results.app.load.medianMs / results.baseline.load.medianMs),
    transferredBytes: round(results.app.load.transferredBytes / results.baseline.load.transferredBytes),
    frameMedian1x: round(results.app.frames1x.medianMs / results.baseline.frames.medianMs),
    frameP99_1x: round(results.app.frames1x.p99Ms / results.baseline.frames.p99Ms),
    frameMedianFastest: round(results.app.framesFastest.medianMs / results.baseline.frames.medianMs),
  };
}

// ---- the fleet chapter at 150 and 1,000 nodes (fleet.mjs)
if (!mobileOnly) results.app.fleet = await benchFleet(browser, appUrl, { instrument: INSTRUMENT, playFrames, round });
if (fleetOnly) {
  await browser.close();
  writeFileSync(outJson, JSON.stringify(results, null, 2) + '\n');
  console.log(fleetLines(results.app.fleet).join('\n'));
  process.exit(0);
}

// ---- phones: Lighthouse mobile on each chapter's first step and on the baseline, and bytes
results.mobile = { chapters: {} };
if (ONLY_PAGES.length > 0) {
  for (const query of ONLY_PAGES) results.mobile.chapters[query] = await lighthouseMobile(`${appUrl}${query}`);
  await browser.close();
  writeFileSync(outJson, JSON.stringify(results, null, 2) + '\n');
  console.log(`Lighthouse, mobile defaults (slow 4G, 4x CPU), served with gzip, median of ${LIGHTHOUSE_RUNS}:`);
  for (const query of ONLY_PAGES) {
    const r = results.mobile.chapters[query];
    console.log(lh(query, r));
    console.log(`    TBT of each run: ${r.tbts.join(', ')} ms`);
    r.longTasks.forEach((tasks, i) => console.log(`    run ${i + 1} long tasks [start, ms]: ${tasks.map((t) => `[${t[0]}, ${t[1]}]`).join(' ')}`));
  }
  process.exit(0);
}
for (const chapter of CHAPTERS) {
  results.mobile.chapters[chapter] = await lighthouseMobile(`${appUrl}?chapter=${chapter}&step=1`);
  console.log(`lighthouse ${chapter}: ${JSON.stringify(results.mobile.chapters[chapter])}`);
}
for (const [name, query] of Object.entries(PAGES)) {
  results.mobile.chapters[name] = await lighthouseMobile(`${appUrl}${query}`);
  console.log(`lighthouse ${name}: ${JSON.stringify(results.mobile.chapters[name])}`);
}
results.mobile.baseline = await lighthouseMobile(baselineUrl);
console.log(`lighthouse baseline: ${JSON.stringify(results.mobile.baseline)}`);
results.mobile.bytes = await bytesBeforeInteractive(`${appUrl}?chapter=registration&step=1`, appDist);
results.mobile.baselineBytes = await bytesBeforeInteractive(baselineUrl, baselineDist);
// Before the first view is complete (the still view's mark, src/view/still.js): the page's
// first step, the heaviest step (its still file the largest once compressed) and the embed.
results.mobile.firstView = {};
for (const query of ['?chapter=registration&step=1', heaviestStep(appDist), PAGES.embed]) {
  results.mobile.firstView[query] = await bytesBeforeInteractive(`${appUrl}${query}`, appDist, 'nodeline-still-shown');
}

results.machine = { browser: browser.version(), node: process.version, platform: process.platform };
await browser.close();

writeFileSync(outJson, JSON.stringify(results, null, 2) + '\n');
function kb(b) {
  return `${round(b / 1000, 1)} KB`;
}
const lines = [`browser ${results.machine.browser}`];
if (!mobileOnly) {
  lines.push(
    `time to interactive from navigation (median of ${LOADS}): nodeline ${results.app.load.medianMs} ms, baseline ${results.baseline.load.medianMs} ms (x${results.ratios.timeToInteractive}); from DOMContentLoaded: nodeline ${results.app.load.medianAfterDomContentLoadedMs} ms, baseline ${results.baseline.load.medianAfterDomContentLoadedMs} ms (budget 300 ms)`,
    `transferred on first load (as served, gzip): nodeline ${kb(results.app.load.transferredBytes)}, baseline ${kb(results.baseline.load.transferredBytes)}`,
    `frames at 1x (${results.app.frames1x.frames} frames): median ${results.app.frames1x.medianMs} ms, p99 ${results.app.frames1x.p99Ms} ms, long tasks ${results.app.frames1x.longTasks}; baseline median ${results.baseline.frames.medianMs} ms, p99 ${results.baseline.frames.p99Ms} ms (x${results.ratios.frameMedian1x} median)`,
    `frames at 60x over a simulated 10 min (${results.app.framesFastest.frames} frames, ${results.app.framesFastest.realSeconds} s): median ${results.app.framesFastest.medianMs} ms, p99 ${results.app.framesFastest.p99Ms} ms, long tasks ${results.app.framesFastest.longTasks}`,
    `scrub to the screen (${results.app.scrub.samples} seeks): median ${results.app.scrub.medianMs} ms, max ${results.app.scrub.maxMs} ms`,
    ...fleetLines(results.app.fleet),
    `memory: JS heap ${kb(results.app.memory.afterSim10m.jsHeapBytes)} -> ${kb(results.app.memory.afterSim1h.jsHeapBytes)}, wasm ${kb(results.app.memory.afterSim10m.wasmBytes)} -> ${kb(results.app.memory.afterSim1h.wasmBytes)} from simulated 10 min to 1 h (growth ${kb(results.app.memory.growthFrom10mTo1hBytes.jsHeap)} JS, ${kb(results.app.memory.growthFrom10mTo1hBytes.wasm)} wasm)`,
  );
}
function lh(name, r) {
  return `  ${name.padEnd(16)} score ${String(r.score).padStart(3)} (${r.scores.join(', ')})  FCP ${r.fcpMs} ms  LCP ${r.lcpMs} ms  TBT ${r.tbtMs} ms  interactive ${r.interactiveMs} ms  SI ${r.speedIndexMs} ms  CLS ${r.cls}  ${kb(r.totalBytes)}  (LCP element: ${r.lcpElement})`;
}
const bytes = (name, b) =>
  `  ${name.padEnd(16)} before interactive: ${b.beforeInteractive.files} files, gzip ${kb(b.beforeInteractive.gzip)}, brotli ${kb(b.beforeInteractive.brotli)}, as served ${kb(b.beforeInteractive.served)}; everything loaded: ${b.everything.files} files, gzip ${kb(b.everything.gzip)}, brotli ${kb(b.everything.brotli)}`;
lines.push(
  `Lighthouse ${results.mobile.baseline.lighthouse}, mobile defaults (slow 4G, 4x CPU), served with gzip, median of ${LIGHTHOUSE_RUNS} (targets: score >= 95, LCP <= 2000 ms, TBT <= 100 ms, interactive <= 2500 ms):`,
  ...[...CHAPTERS, ...Object.keys(PAGES)].map((c) => lh(c, results.mobile.chapters[c])),
  lh('baseline', results.mobile.baseline),
  `bytes on a phone (target before interactive: 250 KB gzip):`,
  bytes('nodeline', results.mobile.bytes),
  bytes('baseline', results.mobile.baselineBytes),
  `  nodeline's files: ${results.mobile.bytes.names.join(', ')}`,
  `bytes before the first view is complete (target: 60 KB gzip):`,
  ...Object.entries(results.mobile.firstView).map(
    ([q, b]) => `  ${q.padEnd(40)} ${b.beforeInteractive.files} files, gzip ${kb(b.beforeInteractive.gzip)} (${b.names.filter((n) => !n.endsWith('(after)')).join(', ')})`,
  ),
);
console.log(lines.join('\n'));
