import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
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

describe('viewer: a fork compared with its origin', () => {
  it('shows both branches side by side: actions, outcome, final message', async () => {
    server = await startTestServer({ config: { apiKeys: [KEY] } });
    const s = server;
    const idle = async (id: string) => {
      await expect
        .poll(
          async () =>
            ((await s.call('GET', `/api/conversations/${id}`, undefined, AUTH)).json as { execution_status?: string })
              .execution_status,
          { timeout: 60_000, interval: 50 },
        )
        .toBe('finished');
    };
    server.llm.push(finishReply('The original answer.'));
    const created = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { initial_message: { content: [{ type: 'text', text: 'go' }], run: true } }),
      AUTH,
    );
    const origin = (created.json as { id: string }).id;
    await idle(origin);
    // Forked at the user's message: the origin's answer comes after the shared events, as the fork's does.
    const messages = await server.call(
      'GET',
      `/api/conversations/${origin}/events/search?kind=MessageEvent`,
      undefined,
      AUTH,
    );
    const items = (messages.json as { items: { id: string; source: string }[] }).items;
    const message = items.find((event) => event.source === 'user');
    const forked = await server.call('POST', `/api/conversations/${origin}/fork`, { from_event_id: message?.id }, AUTH);
    expect(forked.status).toBe(201);
    const fork = (forked.json as { id: string }).id;
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo other' } }] },
      finishReply('The counterfactual answer.'),
    );
    await server.call('POST', `/api/conversations/${fork}/run`, undefined, AUTH);
    await idle(fork);

    const { page, problems } = await openPage(browser);
    await page.goto(`${server.url}/#/c/${fork}`);
    await enterKey(page, KEY);
    const link = page.getByTestId('compare-link');
    await expect.poll(() => link.count(), { timeout: 60_000, interval: 50 }).toBe(1);
    await link.click();
    const b = page.getByTestId('compare-b-final');
    await expect.poll(() => b.count(), { timeout: 60_000, interval: 50 }).toBe(1);
    expect(await page.getByTestId('compare-a-final').textContent()).toBe('The original answer.');
    expect(await b.textContent()).toBe('The counterfactual answer.');
    expect(await page.getByTestId('compare-b-actions').textContent()).toContain('terminal');
    expect(await page.getByTestId('compare-b-status').textContent()).toBe('finished');
    expect(problems).toEqual([]);
  });
});
