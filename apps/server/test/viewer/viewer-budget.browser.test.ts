import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { enterKey, launchBrowser, openPage } from './browser.js';

const KEY = 'viewer-test-key';
const AUTH = { 'X-Session-API-Key': KEY };

let browser: Browser;
let server: TestServer | undefined;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (server !== undefined) await removeDir(server.dataDir);
});

describe('viewer: a budget stop', () => {
  it('shows a banner with the figures on the conversation page', async () => {
    server = await startTestServer({ config: { apiKeys: [KEY] } });
    // A model without a price under a budget: the run stops before its first call.
    const { status, json } = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { budget: { max_usd: 1 }, initial_message: { content: 'go' } }),
      AUTH,
    );
    expect(status).toBe(201);
    const id = (json as { id: string }).id;
    const s = server;
    const statusOf = async () =>
      ((await s.call('GET', `/api/conversations/${id}`, undefined, AUTH)).json as { execution_status?: string })
        .execution_status;
    await expect.poll(statusOf, { timeout: 60_000, interval: 50 }).toBe('error');

    const { page, problems } = await openPage(browser);
    await page.goto(`${server.url}/#/c/${id}`);
    await enterKey(page, KEY);
    const banner = page.getByTestId('budget-stop');
    await expect.poll(() => banner.count(), { timeout: 60_000, interval: 50 }).toBe(1);
    expect(await banner.textContent()).toContain("spend is unknown (model 'gpt-test' has no known price");
    expect(problems).toEqual([]);
  });
});
