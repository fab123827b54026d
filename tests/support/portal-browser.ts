/**
 * The portal in Chromium for an e2e test file: the whole portal on real parts (portal-harness.ts), one browser, and
 * axe on every page the test opens (accessibility-watch.ts). Each test fails when a page it opened has serious or
 * critical accessibility violations.
 *
 * Every test starts signed out on an empty page with nothing stored (no cookies, no local or session storage, no
 * routes, the file's viewport): a test never depends on the page another test left behind, and the e2e project runs
 * each file's tests in a shuffled order to prove it (vitest.workspace.ts). The page itself is the previous test's,
 * emptied, when that test ended cleanly with it alone and never touched the browser's clock: a new page costs
 * Chromium a renderer process (20 loads of the login screen: 1.26 s of CPU each in new pages, 0.44 s in one kept),
 * where emptying the old one costs one navigation to a document the browser answers itself. What a test needs, it
 * makes: `openAs` signs a user in without the login form (a token signed by the portal, as a sign-in would give), and
 * tests/support/api-helpers.ts makes requests through the API.
 *
 *   const portal = usePortalBrowser('session');       // registers beforeAll/beforeEach/afterEach/afterAll
 *   it('…', async () => { await portal.openAs(DEV_ADMIN, '/admin'); … });
 *
 * Screenshots (`shot`) are written to test-results/screenshots/ only when SCREENSHOTS=1: a full-page PNG costs Chromium
 * and the test process a few hundred milliseconds, a hundred of them a run, and a run nobody looks at needs none. A
 * failed test always leaves one of its page (`<prefix>-FAILED-<test>.png`).
 *
 * The browser itself is one per test process, shared by the files that process runs one after another (the e2e
 * project keeps its worker processes: vitest.workspace.ts): a launch costs about a second of CPU, and nothing of a
 * file is left in it, since every test's contexts are closed after the test and the file's at its end.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { AccessibilityWatch, formatViolations, SESSION_SEED_PATH } from './accessibility-watch';
import { startHarness, type Harness } from './portal-harness';
import { UI_BROWSER_PATH } from '../../devtools/ui-browser';
import { sessionOf } from './e2e-fixtures';
import { TOKEN_KEY } from '../../ui/src/lib/token-storage';

const root = path.resolve(import.meta.dirname, '../..');
const SHOTS_DIR = path.join(root, 'test-results', 'screenshots');

/** Whether this run writes screenshots (SCREENSHOTS=1): tests that photograph a part of a page ask it too. */
export const screenshotsWanted = (): boolean => process.env.SCREENSHOTS === '1';
/** Where a screenshot named `name` goes. */
export const screenshotPath = (name: string): string => path.join(SHOTS_DIR, `${name}.png`);

export interface PortalBrowser {
  h: Harness;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  a11y: AccessibilityWatch;
  /** Full-page screenshot test-results/screenshots/<prefix>-NN-<name>.png when SCREENSHOTS=1; returns its path. */
  shot(name: string, page?: Page): Promise<string | null>;
  /** Scans the page as it is now (a tab, a dialog, messages: states that are not navigations). */
  checkA11y(label: string, page?: Page): Promise<void>;
  /** Through the login form (for the tests of signing in; it is rate limited and hashes a password). */
  signIn(email: string, password: string): Promise<void>;
  signOut(): Promise<void>;
  /**
   * The test's page signed in as `user` (by email; a token at the user's session version, stored where the UI keeps
   * it) and opened at `path`: the test's empty page when it has not been used yet, else a new context and page that
   * replace the test's current ones.
   */
  openAs(user: { email: string }, path?: string): Promise<Page>;
  /** A second signed-in context beside the test's page (a requester and an administrator side by side). */
  contextAs(user: { email: string }, options?: { viewport?: { width: number; height: number } }): Promise<BrowserContext>;
}

/** Builds the UI when ui/dist is missing (`npm test` builds it first; a direct `vitest run` may not have). */
function ensureUiBuilt(): void {
  if (existsSync(path.join(root, 'ui', 'dist', 'index.html'))) return;
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', 'ui/vite.config.ts'],
    { cwd: root, stdio: 'inherit' });
}

/** The test process's Chromium, launched on first use and again if it died; it ends with the process. */
const shared = globalThis as { coiTestBrowser?: Promise<Browser> };
function sharedBrowser(): Promise<Browser> {
  if (!shared.coiTestBrowser) {
    // No GPU drawing: SwiftShader (a GPU emulated on the CPU) drew every frame at more CPU than Chromium's own
    // software drawing (an e2e file pair: 49 s → 42 s of CPU, the run's whole Chromium included).
    const launching = chromium.launch({ executablePath: UI_BROWSER_PATH, args: ['--disable-gpu'] });
    shared.coiTestBrowser = launching;
    launching.then((browser) => browser.on('disconnected', () => { if (shared.coiTestBrowser === launching) shared.coiTestBrowser = undefined; }),
      () => { if (shared.coiTestBrowser === launching) shared.coiTestBrowser = undefined; });
  }
  return shared.coiTestBrowser;
}

const DEFAULT_VIEWPORT = { width: 1280, height: 900 };

export interface PortalBrowserOptions {
  viewport?: { width: number; height: number };
  /** the browser's own time zone (IANA), when a test needs it to differ from the office's */
  timezoneId?: string;
  /** extra settings for the portal, read when it starts (after earlier beforeAll hooks ran, e.g. an IdP's URL) */
  env?: () => Record<string, string>;
  /** false: no worker in the test process; the test runs one it can kill (tests/support/worker-process.ts) */
  worker?: boolean;
}

export function usePortalBrowser(screenshotPrefix: string, options: PortalBrowserOptions = {}): PortalBrowser {
  const a11y = new AccessibilityWatch();
  let step = 0;
  const state = {} as { h: Harness; browser: Browser; context: BrowserContext; page: Page };

  const contextOptions = (extra: Parameters<Browser['newContext']>[0] = {}) => ({
    baseURL: state.h.baseUrl!, acceptDownloads: true, viewport: options.viewport ?? DEFAULT_VIEWPORT,
    timezoneId: options.timezoneId, ...extra,
  });
  /** Contexts whose clock a test installed: Playwright cannot take it out again, so their pages are not reused. */
  const clockTouched = new WeakSet<BrowserContext>();
  const newContext = async (extra: Parameters<Browser['newContext']>[0] = {}) => {
    const context = await state.browser.newContext(contextOptions(extra));
    for (const method of ['install', 'pauseAt', 'setFixedTime', 'setSystemTime'] as const) {
      const original = context.clock[method].bind(context.clock) as (...args: unknown[]) => Promise<void>;
      (context.clock as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => { clockTouched.add(context); return original(...args); };
    }
    // Waits for an element or a navigation are bounded generously: a busy machine makes pages slower, not wrong.
    context.setDefaultTimeout(60_000);
    // Pages the test opens later (a second tab) are watched too.
    context.on('page', (page) => a11y.watch(page));
    contexts.push(context);
    return context;
  };
  const contexts: BrowserContext[] = [];
  const signedInState = async (email: string) => {
    const { token } = await sessionOf(state.h, { email });
    return { cookies: [], origins: [{ origin: state.h.baseUrl!, localStorage: [{ name: TOKEN_KEY, value: token }] }] };
  };
  /**
   * Stores a session token in `page`'s origin without loading the portal: the page opens an address the browser
   * answers itself (an empty document), and the token goes into localStorage there. Playwright's `storageState` does
   * the same in a hidden page of its own, which costs Chromium a renderer process per sign-in.
   */
  const storeToken = async (page: Page, email: string) => {
    const { token } = await sessionOf(state.h, { email });
    await withSeedPage(page, () => page.evaluate(([key, value]) => window.localStorage.setItem(key, value), [TOKEN_KEY, token] as const));
  };
  const seedUrl = () => new URL(SESSION_SEED_PATH, state.h.baseUrl!).href;
  /** Runs `work` on `page` opened at an address of the portal's origin that the browser answers itself (an empty document). */
  const withSeedPage = async (page: Page, work: () => Promise<void>) => {
    const seed = seedUrl();
    // With the portal's own headers: a document whose cross-origin isolation (Cross-Origin-Opener-Policy,
    // Origin-Agent-Cluster) differs from the next one's makes Chromium move the page to a new renderer process.
    const answer = async (route: Route) => route.fulfill({ response: await route.fetch(), contentType: 'text/html', body: '<!doctype html><title>session</title>' });
    await page.route(seed, answer);
    try {
      await page.goto(seed);
      await work();
    } finally {
      await page.unroute(seed, answer);
    }
  };

  /** Events a test may listen to on its page; the harness's own (navigations, close) are kept. */
  const testEvents = ['request', 'response', 'requestfinished', 'requestfailed', 'console', 'dialog', 'download', 'popup', 'pageerror'] as const;
  let lastTestFailed = false;
  /** The previous test's page, when it can start the next test as a new one would. */
  const reusablePage = (): Page | undefined => {
    const { context, page } = state;
    if (lastTestFailed || !context || !page || page.isClosed() || clockTouched.has(context)) return undefined;
    if (contexts.length !== 1 || contexts[0] !== context || context.pages().length !== 1) return undefined;
    return page;
  };
  /** Empties the page for the next test: signed out, nothing stored, no routes or listeners of the last test. */
  const emptyPage = async (page: Page) => {
    for (const event of testEvents) page.removeAllListeners(event);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await state.context.unrouteAll({ behavior: 'ignoreErrors' });
    await state.context.clearCookies();
    await page.setViewportSize(options.viewport ?? DEFAULT_VIEWPORT);
    // It stays on that empty document of the portal's origin: about:blank lacks the portal's headers, so the next
    // screen would move to another renderer process.
    await withSeedPage(page, () => page.evaluate(() => { window.localStorage.clear(); window.sessionStorage.clear(); }));
  };

  beforeAll(async () => {
    ensureUiBuilt();
    mkdirSync(SHOTS_DIR, { recursive: true });
    state.h = await startHarness({ listen: true, worker: options.worker, env: options.env?.() });
    state.browser = await sharedBrowser();
  });

  // Nothing of the previous test's session, storage or page is left: its page emptied, or a new context and page.
  beforeEach(async ({ task, onTestFailed }) => {
    onTestFailed(async () => {
      lastTestFailed = true;
      const name = task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
      await state.page?.screenshot({ path: screenshotPath(`${screenshotPrefix}-FAILED-${name}`), fullPage: true }).catch(() => {});
    });
    const page = reusablePage();
    lastTestFailed = false;
    if (page && await emptyPage(page).then(() => true, () => false)) return;
    await Promise.all(contexts.splice(0).map((c) => c.close()));
    state.context = await newContext();
    state.page = await state.context.newPage();
  });

  afterEach(async () => {
    await a11y.settle();
    const violations = a11y.take();
    if (violations.length > 0) {
      throw new Error(`axe found ${violations.length} serious or critical accessibility violation(s):\n${formatViolations(violations)}`);
    }
  });

  afterAll(async () => {
    console.log(`[axe] ${screenshotPrefix}: ${a11y.scans} screens looked at, axe ran on ${a11y.axeRuns} (the others had a shape already scanned)`);
    // The browser stays for the process's next file: this file's contexts go (a test's own ones included).
    await Promise.all([...contexts.splice(0), ...(state.browser?.contexts() ?? [])].map((c) => c.close().catch(() => {})));
    await state.h?.stop();
  });

  const portal: PortalBrowser = {
    get h() { return state.h; },
    get browser() { return state.browser; },
    get context() { return state.context; },
    get page() { return state.page; },
    a11y,
    async shot(name, page = state.page) {
      step += 1;
      if (!screenshotsWanted()) return null;
      const file = screenshotPath(`${screenshotPrefix}-${String(step).padStart(2, '0')}-${name}`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    checkA11y: (label, page = state.page) => a11y.scan(page, label),
    async signIn(email, password) {
      const { page } = state;
      await page.goto('/login');
      await page.locator('input[name="email"]').fill(email);
      await page.locator('input[name="password"]').fill(password);
      await page.getByRole('button', { name: 'Log In' }).click();
    },
    async openAs(user, path = '/') {
      // The test's own page is used while it is still empty (the usual case: openAs first thing in a test); after
      // anything else, a new context, so nothing of another user's session or page is left.
      const unused = ['about:blank', seedUrl()].includes(state.page.url());
      const blank = contexts.length === 1 && state.context.pages().length === 1 && unused;
      if (!blank) {
        await Promise.all(contexts.splice(0).map((c) => c.close()));
        state.context = await newContext();
        state.page = await state.context.newPage();
      }
      await storeToken(state.page, user.email);
      await state.page.goto(path);
      return state.page;
    },
    async contextAs(user, extra = {}) {
      return newContext({ storageState: await signedInState(user.email), ...extra });
    },
    async signOut() {
      await state.page.getByRole('button', { name: 'Log Out' }).click();
      await state.page.waitForURL('**/login');
    },
  };
  return portal;
}
