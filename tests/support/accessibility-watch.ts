/**
 * axe (axe-core) on every page an e2e test opens: each navigation of a watched page,
 * full loads and client-side route changes alike (Playwright reports both as `framenavigated`), is followed by a
 * scan once the screen has settled. Violations of impact serious or critical are collected; the browser setup
 * (portal-browser.ts) fails the test in `afterEach` when any were found. Tests call `scan()` themselves for states
 * that are not navigations (an open tab, a dialog, error messages). `AXE_LOG=1` prints every scan with all its
 * findings (minor and moderate too).
 *
 * What a scan costs is kept small, since an e2e run looks at several hundred screens:
 * - axe's minified source (650 kB) goes into a document once, not at every scan, and a scan answers only its violations
 *   (rule, impact, elements), not axe's full report of every node that passed (megabytes through the protocol).
 * - A screen whose structure the run has already scanned (in any test process) is not scanned again: its shape (elements,
 *   their attributes with digits and wording left out, whether each text is empty, runs of alike siblings such as
 *   table rows counted once, and the viewport's width) is what axe's rules read, so the same shape gives the same
 *   findings. A request page with other numbers, names and rows than one seen before is the same screen.
 */
import type axe from 'axe-core';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { inject } from 'vitest';

/** Impacts that fail a test; minor and moderate findings are left to reviews. */
const BLOCKING_IMPACTS = new Set(['serious', 'critical']);
/** A route change is followed by renders and data loads: wait this long after the last navigation before scanning. */
const NAVIGATION_QUIET_MS = 200;
/** How long a screen may show its loading text before it is scanned anyway. */
const SETTLE_TIMEOUT_MS = 5_000;

/** An address the e2e browser answers itself to store a session token (portal-browser.ts): not a screen of the portal. */
export const SESSION_SEED_PATH = '/__e2e-session';

export interface AccessibilityViolation {
  url: string;
  /** what led to the scan: 'navigation' or the label a test gave */
  when: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/** A screen of the portal (not about:blank, not the empty document sessions are stored from). */
const isPortalScreen = (url: string) => /^https?:/.test(url) && new URL(url).pathname !== SESSION_SEED_PATH;

export class AccessibilityWatch {
  private found: AccessibilityViolation[] = [];
  private seen = new Set<string>();
  private queue: Promise<void> = Promise.resolve();
  private pending = new Map<Page, ReturnType<typeof setTimeout>>();
  /** main-frame navigations per page, to tell a scan cut short by a navigation from a scan that failed */
  private navigations = new WeakMap<Page, number>();
  /** screens looked at (scanned, or known by their shape), for tests of the harness and for the log */
  scans = 0;
  /** scans that ran axe (the others met a shape already scanned) */
  axeRuns = 0;

  /** Scans `page` after each of its navigations (about:blank excluded). */
  watch(page: Page): void {
    page.on('framenavigated', (frame) => {
      if (frame !== page.mainFrame()) return;
      this.navigations.set(page, (this.navigations.get(page) ?? 0) + 1);
      // The document a waiting scan was for is gone; this one gets a scan of its own unless it is not the portal's.
      const timer = this.pending.get(page);
      if (timer) clearTimeout(timer);
      this.pending.delete(page);
      if (!isPortalScreen(frame.url())) return;
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
      if (!isPortalScreen(url)) return; // the test moved on to a page of its own (a new test's empty document)
      const { shape, hasAxe } = await page.evaluate(screenShape);
      this.scans += 1;
      if (!claimShape(shape)) {
        if (process.env.AXE_LOG) console.log(`[axe] ${when} ${url}: a screen of a shape already scanned`);
        return;
      }
      let violations: Awaited<ReturnType<typeof runAxe>>;
      try {
        if (!hasAxe) await page.evaluate(AXE_INSTALL);
        violations = await page.evaluate(runAxe);
      } catch (error) {
        releaseShape(shape); // not scanned after all: the next screen of this shape is
        throw error;
      }
      this.axeRuns += 1;
      if (process.env.AXE_LOG) {
        const all = violations.map((v) => `${v.id}/${v.impact} ${v.targets.join(',')}`);
        console.log(`[axe] ${when} ${url}: ${all.join(' ') || 'clean'}`);
      }
      for (const violation of violations) {
        if (!violation.impact || !BLOCKING_IMPACTS.has(violation.impact)) continue;
        const key = `${url}|${violation.id}|${violation.targets.join(',')}`;
        if (this.seen.has(key)) continue;
        this.seen.add(key);
        this.found.push({ url, when, rule: violation.id, impact: violation.impact, help: violation.help, targets: violation.targets });
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

/**
 * Shapes of screens scanned in this run, by any test process: a file per shape (its hash) in a folder global setup
 * made (tests/setup/global-setup.ts), created with O_EXCL so one process wins each shape; outside a run's setup, a
 * set of this process's own. The e2e project's three processes met many of the same screens: with a set per process
 * axe ran 261 times a run, with this 219 to 223.
 */
const processShapes = new Set<string>();
function shapeFile(shape: string): string | null {
  const dir = inject('axeShapesDir');
  return dir ? path.join(dir, createHash('sha256').update(shape).digest('hex')) : null;
}
/** True when this call claimed the shape for a scan; false when it was scanned (or is being scanned) already. */
function claimShape(shape: string): boolean {
  const file = shapeFile(shape);
  if (!file) {
    if (processShapes.has(shape)) return false;
    processShapes.add(shape);
    return true;
  }
  try {
    closeSync(openSync(file, 'wx'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}
function releaseShape(shape: string): void {
  const file = shapeFile(shape);
  if (file) rmSync(file, { force: true });
  else processShapes.delete(shape);
}

/**
 * axe in the page, for same-origin frames only (the portal has no frames; a frame from elsewhere is not ours to
 * judge). Its minified build: every document a scan looks at receives and parses it (`axe.source` is the 1.5 MB
 * readable build; 650 kB take a fifth less time to install, about 170 instead of 220 ms a document).
 */
const AXE_INSTALL = `${readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')}\n;axe.configure({ allowedOrigins: ['<same_origin>'] });`;

interface FoundInPage { id: string; impact: string | null; help: string; targets: string[] }

/** Runs in the page: axe's violations only, each with its elements' selectors. */
async function runAxe(): Promise<FoundInPage[]> {
  const results = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
  return results.violations.map((v) => ({
    id: v.id, impact: v.impact ?? null, help: v.help, targets: v.nodes.map((node) => node.target.join(' ')),
  }));
}

/**
 * Runs in the page: the screen's shape, as a hash (see the top of this file), and whether axe is loaded in it.
 * Kept self-contained: Playwright sends its source to the page.
 */
function screenShape(): { shape: string; hasAxe: boolean } {
  // Attributes whose wording is data or prose: only whether they are empty counts.
  const WORDING = new Set(['aria-label', 'aria-description', 'aria-valuetext', 'aria-valuenow', 'aria-valuemax', 'aria-valuemin',
    'title', 'alt', 'placeholder', 'value', 'href', 'src', 'download', 'datetime', 'min', 'max', 'data-testid']);
  const shapeOf = (node: Element): string => {
    const attributes = [...node.attributes]
      .map((a) => `${a.name}=${WORDING.has(a.name) ? (a.value.trim() ? 'T' : '') : a.value.replace(/\d+/g, '0')}`)
      .sort()
      .join(' ');
    const parts: string[] = [];
    for (const child of node.childNodes) {
      let part: string | null = null;
      if (child.nodeType === Node.ELEMENT_NODE) {
        const tag = (child as Element).tagName;
        if (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'LINK' || tag === 'META') continue;
        part = shapeOf(child as Element);
      } else if (child.nodeType === Node.TEXT_NODE && child.textContent!.trim()) part = 'T';
      // Runs of alike siblings (table rows, list items, options) count once: more rows are the same screen.
      if (part !== null && part !== parts[parts.length - 1]) parts.push(part);
    }
    return `<${node.tagName} ${attributes}>${parts.join('')}</>`;
  };
  const text = `${window.innerWidth}|${document.title ? 'T' : ''}|${shapeOf(document.documentElement)}`;
  // FNV-1a, two lanes: a short key for the set in the test process.
  let a = 0x811c9dc5, b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return { shape: `${a.toString(16)}${b.toString(16)}:${text.length}`, hasAxe: typeof (window as unknown as { axe?: unknown }).axe !== 'undefined' };
}

/** One line per violation: rule id, impact, the page URL, what led to the scan, and the elements. */
export function formatViolations(violations: readonly AccessibilityViolation[]): string {
  return violations
    .map((v) => `${v.rule} (${v.impact}) on ${v.url} [${v.when}]: ${v.help}\n    ${v.targets.join('\n    ')}`)
    .join('\n');
}
