import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * A small W3C WebDriver (classic) client over HTTP, for the engines Playwright cannot drive:
 * Debian's Firefox ESR through geckodriver and WebKitGTK through WebKitWebDriver. It starts the
 * driver binaries that `cargo xtask test` installed, at the paths xtask passes in the
 * environment, and never looks for or downloads a driver or a browser of its own.
 */

/** Which engine a session runs. */
export type Engine = 'firefox' | 'webkit';

/** An element reference as WebDriver sends it. */
export type ElementRef = { 'element-6066-11e4-a52e-4f735466cecf': string };
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

/** What the page should prefer (system settings the engines take at start). */
export interface Preferences {
  reducedMotion?: boolean;
}

function env(name: string): string {
  const value = process.env[name];
  if (!value) {
    throw new Error(`${name} is not set: run the cross-engine tests through \`cargo xtask test\`.`);
  }
  return value;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

/** A running driver process (one per engine and set of preferences). */
export class Driver {
  private constructor(
    readonly engine: Engine,
    readonly url: string,
    private readonly child: ChildProcess,
    private readonly home: string,
    private readonly log: string[],
  ) {}

  /**
   * Starts the engine's driver on a free port. WebKitGTK takes reduced motion from GTK's settings
   * (`gtk-enable-animations`), read at start from `$XDG_CONFIG_HOME/gtk-3.0/settings.ini`, and
   * needs a display: it runs under `xvfb-run`.
   */
  static async start(engine: Engine, prefs: Preferences = {}): Promise<Driver> {
    const port = await freePort();
    const home = fs.mkdtempSync(path.join(os.tmpdir(), `nodeline-${engine}-`));
    const childEnv: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    let child: ChildProcess;
    if (engine === 'firefox') {
      child = spawn(env('NODELINE_GECKODRIVER'), ['--port', String(port), '--host', '127.0.0.1'], {
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } else {
      const gtk = path.join(home, '.config', 'gtk-3.0');
      fs.mkdirSync(gtk, { recursive: true });
      fs.writeFileSync(
        path.join(gtk, 'settings.ini'),
        `[Settings]\ngtk-enable-animations=${prefs.reducedMotion ? 'false' : 'true'}\n`,
      );
      child = spawn(
        'xvfb-run',
        ['-a', '-s', '-screen 0 1600x1000x24', env('NODELINE_WEBKITDRIVER'), `--port=${port}`],
        { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
      );
    }
    const log: string[] = [];
    child.stdout?.on('data', (d) => log.push(String(d)));
    child.stderr?.on('data', (d) => log.push(String(d)));
    const driver = new Driver(engine, `http://127.0.0.1:${port}`, child, home, log);
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        const res = await fetch(`${driver.url}/status`);
        if (res.ok) {
          break;
        }
      } catch {
        // not listening yet
      }
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`${engine} driver did not start:\n${log.join('')}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return driver;
  }

  /** The capabilities of a headless session of this engine. */
  capabilities(prefs: Preferences): Record<string, unknown> {
    if (this.engine === 'firefox') {
      return {
        browserName: 'firefox',
        'moz:firefoxOptions': {
          binary: env('NODELINE_FIREFOX'),
          args: ['-headless', '-width', '1440', '-height', '900'],
          prefs: {
            'ui.prefersReducedMotion': prefs.reducedMotion ? 1 : 0,
            'intl.accept_languages': 'en-US, en',
            'browser.shell.checkDefaultBrowser': false,
            'app.update.enabled': false,
            'datareporting.policy.dataSubmissionEnabled': false,
            'toolkit.telemetry.enabled': false,
            'network.captive-portal-service.enabled': false,
            'network.connectivity-service.enabled': false,
          },
        },
      };
    }
    return {
      'webkitgtk:browserOptions': { binary: env('NODELINE_MINIBROWSER'), args: ['--automation'] },
    };
  }

  async newSession(prefs: Preferences = {}): Promise<Session> {
    const value = (await call(`${this.url}/session`, 'POST', {
      capabilities: { alwaysMatch: this.capabilities(prefs) },
    })) as { sessionId: string; capabilities: Record<string, unknown> };
    const session = new Session(`${this.url}/session/${value.sessionId}`, this.engine, value.capabilities);
    await session.setTimeouts({ script: 30_000, pageLoad: 60_000, implicit: 0 });
    await session.setWindowRect(1440, 900);
    return session;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.pid !== undefined) {
      // xvfb-run starts Xvfb and the driver in its own process group: end the group.
      try {
        process.kill(this.engine === 'webkit' ? -this.child.pid : this.child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((r) => this.child.once('exit', r));
    }
    fs.rmSync(this.home, { recursive: true, force: true });
  }
}

async function call(url: string, method: 'GET' | 'POST' | 'DELETE', body?: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? undefined : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: { value?: unknown };
  try {
    json = JSON.parse(text) as { value?: unknown };
  } catch {
    throw new Error(`WebDriver ${method} ${url}: HTTP ${res.status}: ${text.slice(0, 500)}`);
  }
  const value = json.value as { error?: string; message?: string } | null;
  if (!res.ok || (value && typeof value === 'object' && 'error' in value && value.error)) {
    const err = new Error(`WebDriver ${method} ${new URL(url).pathname}: ${value?.error}: ${value?.message}`);
    (err as Error & { code?: string }).code = value?.error;
    throw err;
  }
  return json.value;
}

/** W3C key codes for the keys the tests press. */
export const Key = {
  Enter: '\uE007',
  Escape: '\uE00C',
  Space: ' ',
  Tab: '\uE004',
  Shift: '\uE008',
  Home: '\uE011',
  End: '\uE010',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
} as const;

/** One browser session (one window). */
export class Session {
  constructor(
    private readonly base: string,
    readonly engine: Engine,
    readonly capabilities: Record<string, unknown>,
  ) {}

  get browserVersion(): string {
    return String(this.capabilities.browserVersion ?? '?');
  }

  private cmd(method: 'GET' | 'POST' | 'DELETE', route: string, body?: unknown): Promise<unknown> {
    return call(`${this.base}${route}`, method, body ?? (method === 'POST' ? {} : undefined));
  }

  setTimeouts(t: { script: number; pageLoad: number; implicit: number }): Promise<unknown> {
    return this.cmd('POST', '/timeouts', t);
  }

  setWindowRect(width: number, height: number): Promise<unknown> {
    return this.cmd('POST', '/window/rect', { width, height });
  }

  async navigate(url: string): Promise<void> {
    await this.cmd('POST', '/url', { url });
  }

  async url(): Promise<string> {
    return (await this.cmd('GET', '/url')) as string;
  }

  async refresh(): Promise<void> {
    await this.cmd('POST', '/refresh');
  }

  /** Runs `fn` (its source, as a function body with `arguments`) in the current frame. */
  execute<T>(script: string, ...args: unknown[]): Promise<T> {
    return this.cmd('POST', '/execute/sync', { script, args }) as Promise<T>;
  }

  /** Like `execute`, but the script calls `arguments[arguments.length - 1](result)`. */
  executeAsync<T>(script: string, ...args: unknown[]): Promise<T> {
    return this.cmd('POST', '/execute/async', { script, args }) as Promise<T>;
  }

  /** Switches to the iframe `frame`, or back to the top document with `null`. */
  async frame(frame: ElementRef | null): Promise<void> {
    await this.cmd('POST', '/frame', { id: frame });
  }

  async click(el: ElementRef): Promise<void> {
    await this.cmd('POST', `/element/${el[ELEMENT]}/click`);
  }

  async clear(el: ElementRef): Promise<void> {
    await this.cmd('POST', `/element/${el[ELEMENT]}/clear`);
  }

  async sendKeys(el: ElementRef, text: string): Promise<void> {
    await this.cmd('POST', `/element/${el[ELEMENT]}/value`, { text });
  }

  async active(): Promise<ElementRef> {
    return (await this.cmd('GET', '/element/active')) as ElementRef;
  }

  /** Presses and releases each key of `keys` in turn, with `modifier` held around them. */
  async press(keys: string[], modifier?: string): Promise<void> {
    const actions: { type: string; value: string }[] = [];
    if (modifier) {
      actions.push({ type: 'keyDown', value: modifier });
    }
    for (const k of keys) {
      actions.push({ type: 'keyDown', value: k }, { type: 'keyUp', value: k });
    }
    if (modifier) {
      actions.push({ type: 'keyUp', value: modifier });
    }
    await this.cmd('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] });
    await this.cmd('DELETE', '/actions');
  }

  /** Drags with the mouse along `points` (viewport coordinates), button down at the first. */
  async drag(points: { x: number; y: number }[]): Promise<void> {
    const [first, ...rest] = points.map((p) => ({ x: Math.round(p.x), y: Math.round(p.y) }));
    const actions: Record<string, unknown>[] = [
      { type: 'pointerMove', duration: 0, origin: 'viewport', ...first },
      { type: 'pointerDown', button: 0 },
    ];
    for (const p of rest) {
      actions.push({ type: 'pointerMove', duration: 50, origin: 'viewport', ...p });
    }
    actions.push({ type: 'pointerUp', button: 0 });
    await this.cmd('POST', '/actions', {
      actions: [{ type: 'pointer', id: 'mouse', parameters: { pointerType: 'mouse' }, actions }],
    });
    await this.cmd('DELETE', '/actions');
  }

  /** A PNG of the viewport. */
  async screenshot(): Promise<Buffer> {
    return Buffer.from((await this.cmd('GET', '/screenshot')) as string, 'base64');
  }

  async close(): Promise<void> {
    try {
      await this.cmd('DELETE', '');
    } catch {
      // the browser is already gone
    }
  }
}

/** Whether `value` is an element reference. */
export function isElement(value: unknown): value is ElementRef {
  return typeof value === 'object' && value !== null && ELEMENT in value;
}
