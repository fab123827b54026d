/**
 * Renders HTML to PDF in Debian's Chromium through playwright-core. One browser per worker process, launched on
 * first use and again after a crash; `maxConcurrent` pages, each kept and reused for the next letter.
 *
 * Why reuse pages: a fresh context per letter cost about 0.7 CPU-seconds on the 2-core machines, a reused page
 * about 0.08 (bench/README.md). The HTML is the portal's own letter template with every value escaped and no
 * script, so one letter cannot leave anything behind for the next; a page that fails is closed and replaced.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export class ChromiumPdfRenderer {
  private browser: Promise<Browser> | null = null;
  private idlePages: Page[] = [];
  private active = 0;
  private waiting: Array<() => void> = [];

  constructor(private readonly executablePath: string, readonly maxConcurrent = 2) {}

  private launch(): Promise<Browser> {
    if (!existsSync(this.executablePath)) {
      throw new Error(`Chromium not found at ${this.executablePath}: install it with  ` +
        'apt-get install -y chromium fonts-liberation fonts-dejavu-core  (or set CHROMIUM_PATH)');
    }
    if (!this.browser) {
      this.browser = chromium.launch({ executablePath: this.executablePath, args: ['--disable-gpu'] }).then((browser) => {
        browser.on('disconnected', () => { this.browser = null; this.idlePages = []; });
        return browser;
      }, (error) => { this.browser = null; throw error; });
    }
    return this.browser;
  }

  private async slot(): Promise<() => void> {
    if (this.active >= this.maxConcurrent) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    return () => { this.active--; this.waiting.shift()?.(); };
  }

  private async takePage(): Promise<Page> {
    const idle = this.idlePages.pop();
    if (idle && !idle.isClosed()) return idle;
    const browser = await this.launch();
    const context = await browser.newContext({ javaScriptEnabled: false });
    return context.newPage();
  }

  async render(html: string): Promise<Buffer> {
    const release = await this.slot();
    try {
      const page = await this.takePage();
      try {
        await page.setContent(html, { waitUntil: 'load' });
        const pdf = await page.pdf({ format: 'Letter', printBackground: true, margin: { top: '0.75in', bottom: '0.75in', left: '0.9in', right: '0.9in' } });
        this.idlePages.push(page);
        return pdf;
      } catch (error) {
        await page.context().close().catch(() => {});
        throw error;
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    this.idlePages = [];
    if (browser) await (await browser.catch(() => null))?.close();
  }
}
