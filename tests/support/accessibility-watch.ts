/**
 * axe (@axe-core/playwright) on every page an e2e test opens: each navigation of a watched page,
 * full loads and client-side route changes alike (Playwright reports both as `framenavigated`), is followed by a
 * scan once the screen has settled. Violations of impact serious or critical are collected; the browser setup
 * (portal-browser.ts) fails the test in `afterEach` when any were found. Tests call `scan()` themselves for states
 * that are not navigations (an open tab, a dialog, error messages). `AXE_LOG=1` prints every scan with all its
 * findings (minor and moderate too).
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** Impacts that fail a test; minor and moderate findings are left to reviews. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);
/** A route change is followed by renders and data loads: wait this long after the last navigation before scanning. */
const NAVIGATION_QUIET_MS = 200;
/** How long a screen may show its loading text before it is scanned anyway. */
const SETTLE_TIMEOUT_MS = 5_000;

export interface AccessibilityViolation {
  url: string;
  /** what led to the scan: 'navigation' or the label a test gave */
  when: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

export class AccessibilityWatch {
  private found: AccessibilityViolation[] = [];
  private seen = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private pending = new Map<Page, ReturnType<typeof setTimeout>>();
  /** main-frame navigations per page, to tell a scan cut short by a navigation from a scan that failed */
  private navigations = new WeakMap<Page, number>();
  /** number of finished scans, for tests of the harness and for the log */
  scans = 0;

  /** Scans `page` after each of its navigations (about:blank excluded). */
  watch(page: Page): void {
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      this.navigations.set(page, (this.navigations.get(page) ?? 0) + 1);
      if (!/^https?:/.test(frame.url())) return;
      const timer = this.pending.get(page);
      if (timer) clearTimeout(timer);
      this.pending.set(page, setTimeout(() => {
        this.pending.delete(page);
        void this.scan(page, 'navigation');
      }, NAVIGATION_QUIET_MS));
    });
    page.on('close', () => {
      const timer = this.pending.get(page);
      if (timer) clearTimeout(timer);
      this.pending.delete(page);
    });
  }

  /** Queues a scan of the page as it is now (scans run one at a time; never rejects: failures are findings). */
  scan(page: Page, when = 'explicit check'): Promise<void> {
    this.queue = this.queue.then(() => this.analyze(page, when));
    return this.queue;
  }

  /** Runs the scans still waiting for their quiet period, then waits for every queued scan. */
  async settle(): Promise<void> {
    for (const [page, timer] of this.pending) {
      clearTimeout(timer);
      this.pending.delete(page);
      void this.scan(page, 'navigation');
    }
    await this.queue;
  }

  /** The blocking violations found since the last call. */
  take(): AccessibilityViolation[] {
    const found = this.found;
    this.found = [];
    return found;
  }

  private async analyze(page: Page, when: string, attempt = 1): Promise<void> {
    if (page.isClosed()) return;
    const navigationsBefore = this.navigations.get(page) ?? 0;
    try {
      await page.waitForLoadState('load');
      // Screens show "Loading…" (class `loading`) until their data arrives; scan what the user then sees.
      await page.waitForFunction(() => !document.querySelector('.loading'), null, { timeout: SETTLE_TIMEOUT_MS }).catch(() => undefined);
      const url = page.url();
      // Legacy mode runs axe inside the page itself; the default mode opens a helper page in the context for each
      // scan, which is slower and would itself be a page to watch. The portal has no cross-origin frames.
      const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
      this.scans += 1;
      if (process.env.AXE_LOG) {
        const all = results.violations.map((v) => `${v.id}/${v.impact} ${v.nodes.map((n) => n.target.join(' ')).join(',')}`);
        console.log(`[axe] ${when} ${url}: ${all.join(' ') || 'clean'}`);
      }
      for (const violation of results.violations) {
        if (!violation.impact || !BLOCKING_IMPACTS.has(violation.impact)) continue;
        const targets = violation.nodes.map((node) => node.target.join(' '));
        const key = `${url}|${violation.id}|${targets.join(',')}`;
        if (this.seen.has(key)) continue;
        this.seen.add(key);
        this.found.push({ url, when, rule: violation.id, impact: violation.impact, help: violation.help, targets });
      }
    } catch (error) {
      // The page closed or navigated during the scan (a reload between injecting axe and running it loses axe):
      // the new document has a scan of its own queued by that navigation.
      if (page.isClosed() || (this.navigations.get(page) ?? 0) !== navigationsBefore) return;
      if (attempt === 1) return this.analyze(page, when, 2);
      // Scans started by navigations have no caller to reject to: a scan that cannot run fails the test instead.
      this.found.push({ url: page.url(), when, rule: 'axe-scan-failed', impact: 'critical', help: String(error), targets: [] });
    }
  }
}

/** One line per violation: rule id, impact, the page URL, what led to the scan, and the elements. */
export function formatViolations(violations: readonly AccessibilityViolation[]): string {
  return violations
    .map((v) => `${v.rule} (${v.impact}) on ${v.url} [${v.when}]: ${v.help}\n    ${v.targets.join('\n    ')}`)
    .join('\n');
}
