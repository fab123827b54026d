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
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

const LAUNCH_ARGS = ['--disable-gpu', '--single-process', '--no-zygote'];
const PDF_OPTIONS = {
  format: 'Letter', printBackground: true, margin: { top: '0.75in', bottom: '0.75in', left: '0.9in', right: '0.9in' },
} as const;

/** One browser and its one page. Any failure closes the browser: the next letter starts a new one. */
class Lane {
  private current: Promise<{ browser: Browser; page: Page }> | null = null;
  /** Set by close(): a letter still printing (the start-up sample, say) must not launch a browser nobody closes. */
  private closed = false;

  constructor(private readonly executablePath: string) {}

  private open(): Promise<{ browser: Browser; page: Page }> {
    if (this.current) return this.current;
    if (this.closed) return Promise.reject(new Error('The PDF renderer is closed'));
    const opening = (async () => {
      const browser = await chromium.launch({ executablePath: this.executablePath, args: LAUNCH_ARGS });
      browser.on('disconnected', () => { if (this.current === opening) this.current = null; });
      try {
        return { browser, page: await (await browser.newContext({ javaScriptEnabled: false })).newPage() };
      } catch (error) {
        await browser.close().catch(() => {});
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
    try {
      const opened = await this.open();
      browser = opened.browser;
      await opened.page.setContent(html, { waitUntil: 'load' });
      return await opened.page.pdf(PDF_OPTIONS);
    } catch (error) {
      await this.discard();
      if (retryOnDeadBrowser && !this.closed && browser && !browser.isConnected()) return this.render(html, false);
      throw error;
    }
  }

  /** Closes the browser for good, also one still starting. */
  async close(): Promise<void> {
    this.closed = true;
    await this.discard();
  }

  /** Closes the browser, also one still starting; the next letter launches a new one. */
  private async discard(): Promise<void> {
    const current = this.current;
    this.current = null;
    await current?.then(({ browser }) => browser.close(), () => {}).catch(() => {});
  }
}

export class ChromiumPdfRenderer {
  private readonly idle: Lane[];
  private readonly lanes: Lane[];
  private waiting: Array<(lane: Lane) => void> = [];

  constructor(private readonly executablePath: string, readonly maxConcurrent = 2) {
    this.lanes = Array.from({ length: maxConcurrent }, () => new Lane(executablePath));
    this.idle = [...this.lanes];
  }

  private checkExecutable() {
    if (!existsSync(this.executablePath)) {
      throw new Error(`Chromium not found at ${this.executablePath}: install it with  ` +
        'apt-get install -y chromium fonts-liberation fonts-dejavu-core  (or set CHROMIUM_PATH)');
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
