import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's chromium; `tooling/scripts/ensure-chromium.sh` installs it (CI runs it before the tests). */
export const CHROMIUM = process.env.X_CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Where the browser tests save a screenshot of each main view (gitignored). */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../.test-results/viewer-screenshots/', import.meta.url));

/**
 * Launches headless Debian chromium (never a downloaded browser). A missing browser is a failure with
 * the fix in its message, not a skip. Playwright gives every launch a fresh temporary profile.
 */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The viewer's browser tests need Debian's chromium at ${CHROMIUM}. Install it with ` +
        '`bash tooling/scripts/ensure-chromium.sh` (apt-get install -y chromium), or set X_CHROMIUM_PATH.',
    );
  }
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page that records console errors and failed in-page scripts, and refuses every request off loopback. */
export async function openPage(browser: Browser): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1' || url.protocol === 'data:') return route.continue();
    problems.push(`blocked request to ${url.href}`);
    return route.abort();
  });
  return { page, problems };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: false });
}

/** Fills the key prompt (the page asks once per tab). */
export async function enterKey(page: Page, key: string): Promise<void> {
  await page.getByLabel('Session API key').fill(key);
  await page.getByRole('button', { name: 'Open' }).click();
}

/** Ids of the event cards in the timeline, top to bottom. */
export async function renderedEventIds(page: Page): Promise<string[]> {
  return page.$$eval('.timeline article[data-event-id]', (cards) =>
    cards.map((card) => card.getAttribute('data-event-id') ?? ''),
  );
}
