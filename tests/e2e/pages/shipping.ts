import { expect, type Frame, type FrameLocator, type Locator, type Page } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * Helpers for the shipping specs (static build, embed, offline bundle, CSP): what a page
 * requested, what its policy refused, and fake hosts for the build.
 */

/** Every URL the page (and its frames) requested from now on, `data:` URLs included. */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (req) => urls.push(req.url()));
  return urls;
}

/**
 * Holds the page's WebAssembly back (as a slow network does) until the returned function is
 * called.
 */
export async function holdWasm(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/*.wasm', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/**
 * Records every Content-Security-Policy violation the page or any of its frames reports (the
 * `securitypolicyviolation` event) in that frame's `window.__cspViolations`, and returns the
 * console's own "Refused to ..." messages as they come.
 */
export async function recordCspViolations(page: Page): Promise<string[]> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __cspViolations: string[] }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => {
      seen.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const refused: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to/i.test(msg.text())) {
      refused.push(msg.text());
    }
  });
  return refused;
}

/** The violations a frame recorded (see `recordCspViolations`). */
export async function cspViolationsIn(frame: Page | Frame): Promise<string[]> {
  return frame.evaluate(() => (window as unknown as { __cspViolations?: string[] }).__cspViolations ?? ['(not recording)']);
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Serves the folder `dir` at `baseUrl` (an origin and sub-path of our choosing, e.g.
 * `http://docs.example/k8s/nodeline/`) as a plain static host would: files as they are,
 * `index.html` for the folder, 404 otherwise.
 */
export async function serveFolder(page: Page, baseUrl: string, dir: string): Promise<void> {
  await page.route(`${baseUrl}**`, async (route) => {
    const url = new URL(route.request().url());
    let rel = decodeURIComponent(url.pathname.slice(new URL(baseUrl).pathname.length));
    if (rel === '' || rel.endsWith('/')) {
      rel += 'index.html';
    }
    const file = path.join(dir, rel);
    if (!file.startsWith(dir) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      await route.fulfill({ status: 404, body: 'not found' });
      return;
    }
    await route.fulfill({ status: 200, path: file, contentType: TYPES[path.extname(file)] ?? 'application/octet-stream' });
  });
}

/**
 * Serves the build (the test server at `baseURL`) at another origin too, `origin`, through
 * Playwright: pages of one made-up public origin can then embed it from another made-up public
 * origin (a page on a public host may not frame 127.0.0.1: Chromium's local network access rules).
 */
export async function proxyBuild(page: Page, origin: string, baseURL: string): Promise<void> {
  await page.route(`${origin}/**`, async (route) => {
    const url = new URL(route.request().url());
    const response = await route.fetch({ url: new URL(`${url.pathname.slice(1)}${url.search}`, baseURL).href, maxRedirects: 0 });
    await route.fulfill({ response });
  });
}

/** The folder with the offline bundle (`cargo xtask test` makes it and names it). */
export function bundleDir(): string {
  const dir = process.env.NODELINE_BUNDLE_DIR;
  if (!dir) {
    throw new Error('NODELINE_BUNDLE_DIR is not set: run the browser tests through `cargo xtask test`.');
  }
  return dir;
}

/** Waits for two animation frames in `frame`: effects have run and observers have reported. */
export async function settle(frame: Page | Frame): Promise<void> {
  await frame.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/** The app's transport, clock and live region inside an embed (or the page itself). */
export class EmbedView {
  constructor(readonly root: FrameLocator | Page) {}

  get main(): Locator {
    return this.root.getByRole('main');
  }

  get play(): Locator {
    return this.root.getByRole('button', { name: 'Play', exact: true });
  }

  get pause(): Locator {
    return this.root.getByRole('button', { name: 'Pause', exact: true });
  }

  get clock(): Locator {
    return this.root.getByLabel('Simulated time', { exact: true });
  }

  /** The live region: "Step N of M: title". */
  get status(): Locator {
    return this.root.getByRole('status');
  }

  async expectStep(n: number, of = 6): Promise<void> {
    await expect(this.status).toContainText(`Step ${n} of ${of}`);
  }
}
