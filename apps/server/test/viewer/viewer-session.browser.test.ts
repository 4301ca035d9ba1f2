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

describe('viewer: session state and artifacts', () => {
  it('shows the session state and the latest artifact versions, and follows a change live', async () => {
    server = await startTestServer({ config: { apiKeys: [KEY] } });
    const created = await server.call('POST', '/api/conversations', createRequest(server.llm), AUTH);
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    const base = `/api/conversations/${id}`;
    await server.call('PATCH', `${base}/session`, { state_delta: { owner: 'ada' } }, AUTH);
    await server.call('POST', `${base}/artifacts/plan.md`, { text: 'one' }, AUTH);
    await server.call('POST', `${base}/artifacts/plan.md`, { text: 'two' }, AUTH);

    const { page, problems } = await openPage(browser);
    await page.goto(`${server.url}/#/c/${id}`);
    await enterKey(page, KEY);
    const panel = page.getByTestId('session-panel');
    await expect.poll(() => panel.count(), { timeout: 60_000, interval: 50 }).toBe(1);
    expect(await panel.textContent()).toContain('owner"ada"');
    expect(await panel.textContent()).toContain('plan.md v2');

    await server.call('PATCH', `${base}/session`, { state_delta: { stage: 'review' } }, AUTH);
    await expect
      .poll(async () => (await panel.textContent()) ?? '', { timeout: 60_000, interval: 50 })
      .toContain('stage"review"');
    expect(problems).toEqual([]);
  });
});
