/**
 * Renders HTML to PDF in Debian's Chromium through playwright-core. One browser per worker process, launched on
 * first use and again after a crash; a fresh context per document; at most `maxConcurrent` pages at once.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export class ChromiumPdfRenderer {
  private browser: Promise<Browser> | null = null;
  private active = 0;
  private waiting: Array<() => void> = [];

  constructor(private readonly executablePath: string, private readonly maxConcurrent = 2) {}

  private launch(): Promise<Browser> {
    if (!existsSync(this.executablePath)) {
      throw new Error(`Chromium not found at ${this.executablePath}: install it with  ` +
        'apt-get install -y chromium fonts-liberation fonts-dejavu-core  (or set CHROMIUM_PATH)');
    }
    if (!this.browser) {
      this.browser = chromium.launch({ executablePath: this.executablePath, args: ['--disable-gpu'] }).then((browser) => {
        browser.on('disconnected', () => { this.browser = null; });
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

  async render(html: string): Promise<Buffer> {
    const release = await this.slot();
    try {
      const browser = await this.launch();
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        await page.setContent(html, { waitUntil: 'load' });
        await page.evaluate(() => document.fonts.ready);
        return await page.pdf({ format: 'Letter', printBackground: true, margin: { top: '0.75in', bottom: '0.75in', left: '0.9in', right: '0.9in' } });
      } finally {
        await context.close();
      }
    } finally {
      release();
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = null;
    if (browser) await (await browser.catch(() => null))?.close();
  }
}
