import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_PREFIX } from '../src/api/docs-routes.js';
import { type BuiltServer, buildServer } from '../src/index.js';
import { removeDir, tempDir } from './helpers.js';

/** Debian's chromium (never a downloaded browser); a missing browser is a failure with the fix, not a skip. */
const CHROMIUM = process.env.X_CHROMIUM_PATH ?? '/usr/bin/chromium';

let dataDir: string;
let built: BuiltServer;
let url: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`The docs page test needs chromium at ${CHROMIUM} (apt-get install chromium, or X_CHROMIUM_PATH).`);
  }
  dataDir = await tempDir();
  built = await buildServer({ port: 0, dataDir, logLevel: 'silent', apiKeys: ['docs-browser-key'] });
  ({ url } = await built.listen());
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    chromiumSandbox: false,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await built?.close();
  if (dataDir !== undefined) await removeDir(dataDir);
});

describe('the docs page in a browser', () => {
  it('renders every operation offline, under its CSP, without errors', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    // Offline: anything but this server is refused (and noted).
    await context.route('**/*', (route) => {
      const target = new URL(route.request().url());
      if (target.hostname === '127.0.0.1' || target.protocol === 'data:') return route.continue();
      problems.push(`request off loopback: ${target.href}`);
      return route.abort();
    });
    // Runs in the page (a string: this package's types have no DOM).
    await page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));",
    });
    await page.goto(`${url}${DOCS_PREFIX}`);
    await page.waitForSelector('.opblock', { timeout: 60_000 });
    const operationIds = await page.$$eval('.opblock', (blocks) => blocks.length);
    const documented = Object.values(
      ((await (await fetch(`${url}/openapi.json`)).json()) as { paths: Record<string, object> }).paths,
    ).reduce((count, methods) => count + Object.keys(methods).length, 0);
    expect(operationIds).toBe(documented);
    expect(await page.textContent('.info .title')).toContain('@x/server');
    // The security scheme is offered for "Authorize".
    expect(await page.locator('.authorize').count()).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 180_000);
});
