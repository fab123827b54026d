/**
 * Renders HTML to PDF in Debian's Chromium through playwright-core. `maxConcurrent` lanes, each its own browser
 * with one page kept and reused for the next letter; a lane is launched on first use (or by `warmUp`, which the
 * worker calls at start) and again after a crash.
 *
 * Why each lane is a single-process Chromium (bench/README.md "Letters"): in the default multi-process mode every
 * `page.pdf` starts a fresh print-compositor process that exits after the job, about half of a letter's Chromium
 * CPU. In one process the compositor is a thread: measured side by side on the shared 2-core machine, 84 instead
 * of 187 CPU-ms a letter and 141 instead of 413 ms at p50, the same PDF (pdftoppm renders identical pixels). A single-process browser
 * serves one browser context only and runs its pages on one renderer thread, hence a browser per lane rather than
 * pages of one browser. Nothing is lost in isolation: the HTML is the portal's own template with every value
 * escaped, JavaScript is off, nothing is loaded from the network, and playwright already runs Chromium unsandboxed.
 *
 * A print that does not finish within `printTimeoutMs` (a hung Chromium: its page never answers, while the
 * activity's heartbeat keeps going) kills that lane's browser, frees the lane and fails the letter with a
 * retryable error: the activity's retry prints it in a new browser. Each lane's browser is
 * started with `launchServer` for that reason: its process can be killed outright, where `browser.close()` waits
 * for an answer a hung browser never gives.
 *
 * Chromium gets an environment of its own (`chromiumEnvironment`), not the worker's: the worker holds the office's
 * signing key, the database password and the JWT secret in its environment, and a child inherits all of it by default
 * (readable in /proc/<pid>/environ, and in any crash report or core dump of the browser).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserServer, type Page } from 'playwright-core';

const LAUNCH_ARGS = ['--disable-gpu', '--single-process', '--no-zygote'];

/**
 * The variables Chromium is given, when the worker has them: where programs and libraries are, its home and temporary
 * folders (profile, fontconfig's cache), fonts' configuration, locale and time zone. Nothing else of the worker's.
 */
const CHROMIUM_ENVIRONMENT = [
  'PATH', 'LD_LIBRARY_PATH', 'HOME', 'TMPDIR', 'TZ', 'LANG', 'LANGUAGE', 'LC_ALL', 'LC_CTYPE',
  'FONTCONFIG_FILE', 'FONTCONFIG_PATH', 'FONTCONFIG_SYSROOT', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_DATA_DIRS', 'XDG_RUNTIME_DIR',
] as const;

/** The environment Chromium runs in: the variables above that `env` has, and none other. */
export function chromiumEnvironment(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  return Object.fromEntries(CHROMIUM_ENVIRONMENT.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]!]])));
}
const PDF_OPTIONS = {
  format: 'Letter', printBackground: true, margin: { top: '0.75in', bottom: '0.75in', left: '0.9in', right: '0.9in' },
} as const;

/** Default longest print: a letter takes about 0.15 s, 2 s on a machine under heavy load. */
export const DEFAULT_PRINT_TIMEOUT_MS = 30_000;

/** A print that did not finish in time; retryable (the next attempt gets a new browser). */
export class PrintTimeout extends Error {
  override name = 'PrintTimeout';
}

interface OpenLane { server: BrowserServer; browser: Browser; page: Page }

/** One browser and its one page. Any failure closes the browser: the next letter starts a new one. */
class Lane {
  private current: Promise<OpenLane> | null = null;
  /** Set by close(): a letter still printing (the start-up sample, say) must not launch a browser nobody closes. */
  private closed = false;

  constructor(private readonly executablePath: string, private readonly printTimeoutMs: number) {}

  private open(): Promise<OpenLane> {
    if (this.current) return this.current;
    if (this.closed) return Promise.reject(new Error('The PDF renderer is closed'));
    const opening = (async () => {
      const server = await chromium.launchServer({ executablePath: this.executablePath, args: LAUNCH_ARGS, env: chromiumEnvironment() });
      try {
        const browser = await chromium.connect(server.wsEndpoint());
        browser.on('disconnected', () => { if (this.current === opening) this.current = null; });
        return { server, browser, page: await (await browser.newContext({ javaScriptEnabled: false })).newPage() };
      } catch (error) {
        await server.kill().catch(() => {});
        throw error;
      }
    })();
    this.current = opening;
    opening.catch(() => { if (this.current === opening) this.current = null; });
    return opening;
  }

  /** A browser found dead (killed, out of memory) since the last letter is replaced once, then the letter printed. */
  async render(html: string, retryOnDeadBrowser = true): Promise<Buffer> {
    let browser: Browser | null = null;
    let timer: NodeJS.Timeout | undefined;
    try {
      const opened = await this.open();
      browser = opened.browser;
      const printing = (async () => {
        await opened.page.setContent(html, { waitUntil: 'load', timeout: this.printTimeoutMs });
        return opened.page.pdf(PDF_OPTIONS);
      })();
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new PrintTimeout(
          `Chromium did not finish printing within ${this.printTimeoutMs / 1000} s; its browser was restarted`)), this.printTimeoutMs);
      });
      printing.catch(() => {}); // after a timeout its own failure (the browser killed) is nobody's business
      return await Promise.race([printing, timedOut]);
    } catch (error) {
      await this.discard();
      if (retryOnDeadBrowser && !this.closed && browser && !browser.isConnected() && !(error instanceof PrintTimeout)) {
        return this.render(html, false);
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the browser for good, also one still starting. */
  async close(): Promise<void> {
    this.closed = true;
    await this.discard();
  }

  /**
   * Ends the browser, also one still starting; the next letter launches a new one. Killed, not closed: a hung
   * browser never answers a close, and a lane's browser holds nothing worth a graceful end (one page, no profile).
   */
  private async discard(): Promise<void> {
    const current = this.current;
    this.current = null;
    await current?.then(({ server }) => server.kill(), () => {}).catch(() => {});
  }
}

export class ChromiumPdfRenderer {
  private readonly idle: Lane[];
  private readonly lanes: Lane[];
  private waiting: Array<(lane: Lane) => void> = [];

  constructor(private readonly executablePath: string, readonly maxConcurrent = 2, printTimeoutMs = DEFAULT_PRINT_TIMEOUT_MS) {
    this.lanes = Array.from({ length: maxConcurrent }, () => new Lane(executablePath, printTimeoutMs));
    this.idle = [...this.lanes];
  }

  private checkExecutable() {
    if (!existsSync(this.executablePath)) {
      throw new Error(`Chromium not found at ${this.executablePath}: install it with  ` +
        'apt-get install -y chromium-headless-shell fonts-liberation fonts-dejavu-core  (or set CHROMIUM_PATH)');
    }
  }

  private async take(): Promise<Lane> {
    return this.idle.pop() ?? new Promise<Lane>((resolve) => this.waiting.push(resolve));
  }

  private give(lane: Lane) {
    const next = this.waiting.shift();
    if (next) next(lane);
    else this.idle.push(lane);
  }

  async render(html: string): Promise<Buffer> {
    this.checkExecutable();
    const lane = await this.take();
    try {
      return await lane.render(html);
    } finally {
      this.give(lane);
    }
  }

  /**
   * Launches every lane and prints `html` on each (fonts and the print path loaded), so the first letter after a
   * worker starts does not wait for a browser. Failures are left for the letters themselves to report.
   */
  async warmUp(html: string): Promise<void> {
    if (!existsSync(this.executablePath)) return;
    await Promise.all(this.lanes.map(() => this.render(html).catch(() => {})));
  }

  async close(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.close()));
  }
}
