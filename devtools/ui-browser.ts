/**
 * The browser the tests and benches drive the portal's pages in: Debian's Chromium in its headless-shell build, the
 * build Playwright itself uses for headless Chromium (the same Blink and V8 as the full browser, without the
 * browser's own window UI, which cost a fifth of an e2e file's CPU). `TEST_BROWSER_PATH=/usr/bin/chromium` drives
 * the full browser instead. Letters are printed by the same build (config: CHROMIUM_PATH).
 */
export const UI_BROWSER_PATH = process.env.TEST_BROWSER_PATH ?? '/usr/lib/chromium/chromium-headless-shell';
