/**
 * The browser the tests and benches drive the portal's pages in: Debian's full Chromium, as people use a browser
 * (`TEST_BROWSER_PATH` to use another). Letters are printed by another build (config: CHROMIUM_PATH).
 */
export const UI_BROWSER_PATH = process.env.TEST_BROWSER_PATH ?? '/usr/bin/chromium';
