// The simulation's wasm benchmark behind `cargo xtask bench`: opens the page of bench/simwasm
// (served by xtask) in headless Chromium, waits while it builds the 1,000-node hour as it loads,
// and prints the JSON it wrote into #result (build time in ms, growth of the wasm memory in
// bytes, the log's records). A measurement: nothing here asserts a budget.
//   node sim.mjs PAGE_URL
import { chromium } from '@playwright/test';

const [url] = process.argv.slice(2);
if (!url) {
  console.error('usage: node sim.mjs PAGE_URL (run it through `cargo xtask bench`)');
  process.exit(2);
}
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(`page error: ${e.message}`));
  await page.goto(url);
  const result = page.locator('#result');
  await result.waitFor({ state: 'attached', timeout: 600_000 });
  console.log(await result.innerText());
} finally {
  await browser.close();
}
