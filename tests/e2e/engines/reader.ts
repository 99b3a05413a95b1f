import { expect } from '@playwright/test';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseClock } from '../pages/app-page';
import { Key, type ElementRef, type Session } from './webdriver';

/**
 * The page as a reader meets it, driven over WebDriver in Firefox ESR and WebKitGTK. Elements
 * are found as the Playwright suite finds them, by role and accessible name: the queries of
 * Testing Library (`@testing-library/dom`, which computes roles and names with
 * `dom-accessibility-api`) run inside the page. Every wait is for a state (`expect.poll`), never
 * for a fixed time.
 */

const TESTING_LIBRARY = fs.readFileSync(
  path.join(__dirname, '..', 'node_modules', '@testing-library', 'dom', 'dist', '@testing-library', 'dom.umd.min.js'),
  'utf8',
);

/** The test server's collection of violation reports (xtask's `server::CSP_REPORTS`). */
export const CSP_REPORTS = '/__csp-reports';

/** In the address of the page where the suite breaks the policy on purpose (xtask ignores it). */
export const PROVOKED = 'csp-provoked';

/** Where the cross-engine screenshots go (gitignored, next to Playwright's). */
export const SCREENSHOT_DIR = path.join(__dirname, '..', 'screenshots', 'engines');

/**
 * Finds the elements a list of steps names, starting from the document's body; defined in the
 * probe, next to the library, because Firefox gives each WebDriver script a realm of its own
 * and a pattern made in one does not match in the other.
 */
const RESOLVER = `
  window.__nodelineResolve = (steps) => {
    const TL = window.TestingLibraryDom;
    // (A frame just made may still show its first, empty document, with no body yet: then
    // nothing is found, and the caller's poll tries again.)
    let nodes = document.body ? [document.body] : [];
    for (const s of steps) {
      if (s.kind === 'nth') { nodes = nodes.slice(s.index, s.index + 1); continue; }
      const next = [];
      for (const n of nodes) {
        if (s.kind === 'role') {
          const options = {};
          if (s.regex) options.name = new RegExp(s.regex[0], s.regex[1]);
          else if (s.name !== undefined) options.name = s.name;
          if (s.level !== undefined) options.level = s.level;
          next.push(...TL.queryAllByRole(n, s.role, options));
        } else if (s.kind === 'label') {
          next.push(...TL.queryAllByLabelText(n, s.text, { exact: true }));
        } else if (s.kind === 'css') {
          next.push(...n.querySelectorAll(s.css));
        } else if (s.kind === 'text') {
          const re = new RegExp(s.regex[0], s.regex[1]);
          for (const el of n.querySelectorAll('*')) if (re.test(el.textContent.trim())) next.push(el);
        }
      }
      nodes = [...new Set(next)];
    }
    return nodes;
  };
`;

/**
 * Installed in every document the tests open (and in each embed's frame): records uncaught
 * errors, unhandled rejections, `console.error` and Content-Security-Policy violations in
 * `window.__nodelineProbe`, and loads Testing Library's queries. Run through WebDriver, which
 * the page's policy does not govern; the app itself never runs it.
 */
const PROBE = `
  if (!window.__nodelineProbe) {
    const seen = [];
    window.__nodelineProbe = seen;
    document.addEventListener('securitypolicyviolation', (e) =>
      seen.push('CSP: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' (' + e.sourceFile + ':' + e.lineNumber + ')'));
    window.addEventListener('error', (e) => seen.push('uncaught: ' + (e.message || e.error)));
    window.addEventListener('unhandledrejection', (e) => seen.push('unhandled rejection: ' + (e.reason && e.reason.message || e.reason)));
    const error = console.error.bind(console);
    console.error = (...args) => { seen.push('console.error: ' + args.map(String).join(' ')); error(...args); };
  }
  if (!window.TestingLibraryDom) {
    // Firefox runs WebDriver scripts in a sandbox whose globalThis is not the window: the
    // library's UMD wrapper must put itself on the window, where the next script finds it.
    const globalThis = window;
    ${TESTING_LIBRARY}
    ${RESOLVER}
  }
  return true;
`;

/** One step of a locator: a query run on each element the previous steps found. */
type Step =
  | { kind: 'role'; role: string; name?: string; regex?: [string, string]; level?: number }
  | { kind: 'label'; text: string }
  | { kind: 'css'; css: string }
  | { kind: 'text'; regex: [string, string] }
  | { kind: 'nth'; index: number };

const RESOLVE = 'return window.__nodelineResolve(JSON.parse(arguments[0]));';

/** A lazy query, resolved again at every use (as Playwright's locators are). */
export class Locator {
  constructor(
    readonly reader: Reader,
    private readonly steps: Step[],
  ) {}

  private with(step: Step): Locator {
    return new Locator(this.reader, [...this.steps, step]);
  }

  getByRole(role: string, options: { name?: string | RegExp; level?: number } = {}): Locator {
    const { name, level } = options;
    return this.with(
      name instanceof RegExp
        ? { kind: 'role', role, regex: [name.source, name.flags], level }
        : { kind: 'role', role, name, level },
    );
  }

  getByLabel(text: string): Locator {
    return this.with({ kind: 'label', text });
  }

  locator(css: string): Locator {
    return this.with({ kind: 'css', css });
  }

  getByText(re: RegExp): Locator {
    return this.with({ kind: 'text', regex: [re.source, re.flags] });
  }

  nth(index: number): Locator {
    return this.with({ kind: 'nth', index });
  }

  first(): Locator {
    return this.nth(0);
  }

  /** The elements this locator finds now. */
  async all(): Promise<ElementRef[]> {
    await this.reader.probe();
    return this.reader.session.execute<ElementRef[]>(RESOLVE, JSON.stringify(this.steps));
  }

  async count(): Promise<number> {
    return (await this.all()).length;
  }

  /** The one element, waiting for it to exist (an error if there are several). */
  async element(): Promise<ElementRef> {
    let found: ElementRef[] = [];
    await expect
      .poll(async () => (found = await this.all()).length, { message: `${this.describe()} finds one element` })
      .toBe(1);
    return found[0];
  }

  private async eval<T>(body: string): Promise<T> {
    const el = await this.element();
    return this.reader.session.execute<T>(`const el = arguments[0]; ${body}`, el);
  }

  /** The text as Playwright's `toHaveText` reads it: `textContent`, whitespace collapsed. */
  async text(): Promise<string> {
    return this.eval<string>("return el.textContent.replace(/\\s+/g, ' ').trim();");
  }

  /** The rendered text, line breaks and all (for `<pre>`); CSS `text-transform` applies. */
  async innerText(): Promise<string> {
    return this.eval<string>('return el.innerText;');
  }

  /** The rendered text of each element found (table rows: cells apart). */
  async texts(): Promise<string[]> {
    const els = await this.all();
    return this.reader.session.execute<string[]>('return [...arguments].map((el) => el.innerText.trim());', ...els);
  }

  async attribute(name: string): Promise<string | null> {
    return this.eval<string | null>(`return el.getAttribute(${JSON.stringify(name)});`);
  }

  async isVisible(): Promise<boolean> {
    const els = await this.all();
    return (
      els.length === 1 &&
      (await this.reader.session.execute<boolean>(
        'const r = arguments[0].getBoundingClientRect(); return r.width > 0 && r.height > 0 && arguments[0].checkVisibility({ visibilityProperty: true });',
        els[0],
      ))
    );
  }

  async isFocused(): Promise<boolean> {
    const els = await this.all();
    return els.length === 1 && (await this.reader.session.execute<boolean>('return document.activeElement === arguments[0];', els[0]));
  }

  /**
   * Clicks the element as a reader would: scrolled into view first (WebKitWebDriver does not
   * scroll an element into view inside a scrolled box, such as a tab strip wider than the panel).
   */
  async click(): Promise<void> {
    const el = await this.element();
    await this.reader.session.execute<void>("arguments[0].scrollIntoView({ block: 'center', inline: 'center' });", el);
    await this.reader.session.click(el);
  }

  async focus(): Promise<void> {
    await this.eval<void>('el.focus();');
    await expect.poll(() => this.isFocused(), { message: `${this.describe()} takes the focus` }).toBe(true);
  }

  /** Clears a text field and types `text` into it, as a reader would. */
  async fill(text: string): Promise<void> {
    const el = await this.element();
    await this.reader.session.clear(el);
    await this.reader.session.sendKeys(el, text);
  }

  /** Chooses the option with this label in a `<select>`, with the keyboard-free WebDriver click. */
  async selectOption(label: string): Promise<void> {
    await this.locator('option').getByText(new RegExp(`^${escape(label)}$`)).click();
  }

  async boundingBox(): Promise<{ x: number; y: number; width: number; height: number }> {
    return this.eval('el.scrollIntoView({ block: "center" }); const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height };');
  }

  async expectText(expected: string | RegExp): Promise<void> {
    const poll = expect.poll(async () => (await this.text()).trim(), { message: this.describe() });
    await (typeof expected === 'string' ? poll.toBe(expected) : poll.toMatch(expected));
  }

  async expectContains(expected: string): Promise<void> {
    await expect.poll(() => this.text(), { message: this.describe() }).toContain(expected);
  }

  async expectAttribute(name: string, expected: string | null): Promise<void> {
    await expect.poll(() => this.attribute(name), { message: `${this.describe()} [${name}]` }).toBe(expected);
  }

  async expectVisible(visible = true): Promise<void> {
    await expect.poll(() => this.isVisible(), { message: `${this.describe()} is ${visible ? 'visible' : 'hidden'}` }).toBe(visible);
  }

  async expectCount(n: number): Promise<void> {
    await expect.poll(() => this.count(), { message: `${this.describe()} count` }).toBe(n);
  }

  async expectFocused(): Promise<void> {
    await expect.poll(() => this.isFocused(), { message: `${this.describe()} is focused` }).toBe(true);
  }

  describe(): string {
    return this.steps
      .map((s) => {
        switch (s.kind) {
          case 'role':
            return `role=${s.role}${s.regex ? `[name=/${s.regex[0]}/]` : s.name !== undefined ? `[name="${s.name}"]` : ''}`;
          case 'label':
            return `label="${s.text}"`;
          case 'css':
            return s.css;
          case 'text':
            return `text=/${s.regex[0]}/`;
          case 'nth':
            return `nth=${s.index}`;
        }
      })
      .join(' >> ');
  }
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The app, in the session's current frame (the page, or an embed once `enterFrame` was called). */
export class Reader {
  constructor(
    readonly session: Session,
    readonly baseUrl: string,
  ) {}

  /** Installs the probe in the current document if it is not there (after every navigation). */
  async probe(): Promise<void> {
    await this.session.execute<boolean>(PROBE);
  }

  /** Everything the probe recorded in the current document. */
  async problems(): Promise<string[]> {
    return this.session.execute<string[]>('return window.__nodelineProbe ? [...window.__nodelineProbe] : ["(probe not installed)"];');
  }

  /**
   * The violation reports this engine's pages sent the test server so far (the server adds a
   * `report-uri` to the documented policy), except the one the suite provokes on purpose.
   */
  async serverReports(): Promise<string[]> {
    const agent = await this.session.execute<string>('return navigator.userAgent;');
    const all = (await (await fetch(new URL(CSP_REPORTS, this.baseUrl))).json()) as { agent: string; report: string }[];
    return all.filter((r) => r.agent === agent && !r.report.includes(PROVOKED)).map((r) => r.report);
  }

  async expectNoProblems(): Promise<void> {
    expect(await this.problems(), 'uncaught errors, console errors or CSP violations').toEqual([]);
    expect(await this.serverReports(), 'CSP violations reported to the server').toEqual([]);
  }

  /** Opens `rel` (relative to the served site, or an absolute URL) and waits for the app. */
  async open(rel: string): Promise<void> {
    await this.session.navigate(new URL(rel, this.baseUrl).href);
    await this.probe();
    // The still view (pre-rendered, busy) stands until the app takes its place: its elements go
    // then, so the app's main is looked for afresh each time, and only then used.
    const APP = "return !!document.querySelector('main:not([data-still]):not([aria-busy])')";
    await expect.poll(() => this.session.execute<boolean>(APP).catch(() => false), { message: 'the app' }).toBe(true);
    await this.main.expectVisible();
  }

  get root(): Locator {
    return new Locator(this, []);
  }

  getByRole(role: string, options: { name?: string | RegExp; level?: number } = {}): Locator {
    return this.root.getByRole(role, options);
  }

  get main(): Locator {
    return this.getByRole('main');
  }

  get play(): Locator {
    return this.getByRole('button', { name: 'Play' });
  }

  get pause(): Locator {
    return this.getByRole('button', { name: 'Pause' });
  }

  get status(): Locator {
    return this.getByRole('status');
  }

  get clock(): Locator {
    return this.root.getByLabel('Simulated time');
  }

  get stepOf(): Locator {
    return this.root.locator('section.narration .step-of');
  }

  chapterLink(n: number): Locator {
    return this.getByRole('navigation', { name: 'Chapters' }).getByRole('link', { name: new RegExp(`^Chapter ${n}(?!\\d)`) });
  }

  get bar(): Locator {
    return this.getByRole('region', { name: 'Playback' });
  }

  get slider(): Locator {
    return this.bar.getByRole('slider', { name: 'Timeline' });
  }

  marker(n: number): Locator {
    return this.bar.getByRole('button', { name: `Step ${n}` });
  }

  get speedChoice(): Locator {
    return this.bar.getByRole('combobox', { name: 'Speed' }).locator('option:checked');
  }

  get sheet(): Locator {
    return this.getByRole('dialog', { name: 'Keyboard shortcuts' });
  }

  get inspector(): Locator {
    return this.getByRole('region', { name: 'Inspector' });
  }

  tab(name: string): Locator {
    return this.inspector.getByRole('tab', { name });
  }

  get openPanel(): Locator {
    return this.inspector.getByRole('tabpanel');
  }

  get nodeStatus(): Locator {
    return this.inspector.locator('table.get-nodes tbody td[data-col="status"]');
  }

  /** The cells of a Conditions row: status, heartbeat, transition, reason, message. */
  conditionCell(type: string, n: number): Locator {
    return this.inspector.locator(`table.conditions tbody tr[data-type="${type}"] td`).nth(n);
  }

  get sandbox(): Locator {
    return this.getByRole('region', { name: 'Sandbox' });
  }

  action(name: string): Locator {
    return this.sandbox.getByRole('button', { name });
  }

  get forkNotice(): Locator {
    return this.sandbox.locator('.fork');
  }

  get stage(): Locator {
    return this.getByRole('region', { name: 'Stage' });
  }

  /** The simulated clock in seconds. */
  async clockSeconds(): Promise<number> {
    return parseClock(await this.clock.text());
  }

  async expectClock(label: string): Promise<void> {
    await this.clock.expectText(label);
    await this.slider.expectAttribute('aria-valuetext', label);
  }

  /** Presses keys on whatever has the focus. */
  async press(...keys: (keyof typeof Key | string)[]): Promise<void> {
    await this.session.press(keys.map((k) => (k in Key ? Key[k as keyof typeof Key] : k)));
  }

  /** Switches into the iframe `frame` finds, installs the probe there and waits for its app. */
  async enterFrame(frame: Locator): Promise<void> {
    const el = await frame.element();
    await this.session.frame(el);
    await expect.poll(async () => {
      await this.probe();
      return this.main.count();
    }).toBe(1);
  }

  async leaveFrame(): Promise<void> {
    await this.session.frame(null);
  }

  /** Waits for two animation frames: effects have run and observers have reported. */
  async settle(): Promise<void> {
    await this.session.executeAsync<void>(
      'const done = arguments[arguments.length - 1]; requestAnimationFrame(() => requestAnimationFrame(() => done()));',
    );
  }

  /** Saves the viewport as `engines/<engine>-<name>.png`. */
  async screenshot(name: string): Promise<string> {
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${this.session.engine}-${name}.png`);
    fs.writeFileSync(file, await this.session.screenshot());
    return file;
  }
}
