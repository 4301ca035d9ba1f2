import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForBrowser, launchChromium, openTestPage, startXServe, type XServe } from '@x/browser-testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryWithUnreadableNested } from './support/git.js';

const KEY = 'browser-client-key';
const AUTH = { 'x-session-api-key': KEY, 'content-type': 'application/json' };
const agent = {
  llm: { model: 'offline' },
  tools: [],
  x_offline_script: [{ content: 'first answer' }, { content: 'second answer' }],
};

interface PageApi {
  createAndRun(apiKey: string, agent: Record<string, unknown>, text: string): Promise<string>;
  follow(apiKey: string, conversationId: string): void;
  gitChanges(apiKey: string, path: string): Promise<{ paths: string[]; unreadable: string[] }>;
  received: { index: number | undefined; id: string; kind: string }[];
  state: { disconnects: number; readies: number; failure: string | undefined; resumeMode: string | undefined };
}
declare const xTest: PageApi;

/** Polls until the assertion holds: generous, because the machine running the suite may be heavily loaded. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 60_000, interval: 50 });

let browser: Browser;
let server: XServe;
let script: string;

beforeAll(async () => {
  [browser, server, { code: script }] = await Promise.all([
    launchChromium(),
    startXServe({ apiKey: KEY }),
    bundleForBrowser({ entry: fileURLToPath(new URL('./fixtures/client-page.ts', import.meta.url)) }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function restEventIds(id: string): Promise<string[]> {
  const ids: string[] = [];
  let pageId: string | null = null;
  do {
    const query: string = pageId === null ? '' : `&page_id=${pageId}`;
    const response = await fetch(`${server.url}/api/conversations/${id}/events/search?limit=100${query}`, {
      headers: AUTH,
    });
    const page = (await response.json()) as { items: { id: string }[]; next_page_id: string | null };
    ids.push(...page.items.map((event) => event.id));
    pageId = page.next_page_id;
  } while (pageId !== null);
  return ids;
}

async function status(id: string): Promise<unknown> {
  const response = await fetch(`${server.url}/api/conversations/${id}`, { headers: AUTH });
  return ((await response.json()) as { execution_status?: unknown }).execution_status;
}

const persisted = (page: Page) =>
  page.evaluate(() =>
    xTest.received.filter((frame) => frame.index !== undefined).map(({ index, id }) => ({ index, id })),
  );

/**
 * The ids of the events the page persisted, once they equal the log's as it stands at that moment. A run writes
 * its end record just after its status says `finished`, so ids read from the log once, at that status, can miss it.
 */
async function settledIds(page: Page, id: string): Promise<string[]> {
  let shown: string[] = [];
  await eventually(async () => {
    shown = (await persisted(page)).map((frame) => frame.id);
    return JSON.stringify(shown) === JSON.stringify(await restEventIds(id));
  }).toBe(true);
  return shown;
}

describe('@x/client bundled for the browser, in Chromium against x serve', () => {
  it('bundles without Node built-ins and without ws', async () => {
    const { inputs } = await bundleForBrowser({
      entry: fileURLToPath(new URL('../src/index.ts', import.meta.url)),
    });
    expect(inputs.filter((input) => input.includes('node_modules/ws/'))).toEqual([]);
  });

  it('runs a conversation, then resumes its stream after a dropped socket with no gap and no duplicate', async () => {
    const { page, problems, gate, close } = await openTestPage(browser, {
      origin: server.url,
      html: '<!doctype html><html><body><script type="module" src="./page.js"></script></body></html>',
      script,
    });
    const socketUrls: string[] = [];
    page.on('websocket', (socket) => socketUrls.push(socket.url()));
    try {
      await page.goto(`${server.url}/__test__/`);
      await page.waitForFunction(() => 'xTest' in window);
      // REST and the run's wait (the stream's published snapshots) through fetch and the browser's WebSocket.
      const id = await page.evaluate(([key, body]) => xTest.createAndRun(key, body, 'hello'), [KEY, agent] as const);
      // From here, the sockets of the stream followed (the run's own stream was opened and closed before).
      const followed = socketUrls.length;
      await page.evaluate(([key, conversationId]) => xTest.follow(key, conversationId), [KEY, id] as const);
      const before = await settledIds(page, id);

      await gate.dropAndHold();
      await eventually(() => page.evaluate(() => xTest.state.disconnects)).toBeGreaterThanOrEqual(1);
      // The log grows while the page has no socket: a second message and its run.
      const sent = await fetch(`${server.url}/api/conversations/${id}/events`, {
        method: 'POST',
        headers: AUTH,
        body: JSON.stringify({ role: 'user', content: [{ type: 'text', text: 'again' }], run: true }),
      });
      expect(sent.status).toBeLessThan(300);
      await eventually(() => status(id)).toBe('finished');
      expect((await restEventIds(id)).length).toBeGreaterThan(before.length);
      expect(await persisted(page)).toHaveLength(before.length);

      gate.release();
      const after = await settledIds(page, id);
      expect(after.length).toBeGreaterThan(before.length);
      const frames = await persisted(page);
      expect(frames.map((frame) => frame.index)).toEqual(after.map((_, index) => index));
      expect(new Set(frames.map((frame) => frame.id)).size).toBe(frames.length);
      expect(gate.connections).toBeGreaterThanOrEqual(2);
      expect(await page.evaluate(() => xTest.state.readies)).toBeGreaterThanOrEqual(2);
      expect(await page.evaluate(() => xTest.state.failure)).toBeUndefined();
      // The browser's WebSocket hides the upgrade's headers: `auto` resumes by index, asking nothing else of the
      // server (no timestamp start read over REST, no reference replay parameters), from 0 then from the drop.
      expect(await page.evaluate(() => xTest.state.resumeMode)).toBe('index');
      const stream = `${server.url.replace(/^http/, 'ws')}/sockets/events/${id}`;
      expect(socketUrls[followed]).toBe(`${stream}?from_index=0`);
      expect(socketUrls.at(-1)).toBe(`${stream}?from_index=${before.length}`);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('reads, at the server’s origin, the header naming the nested repositories the server could not read', async () => {
    const created = await fetch(`${server.url}/api/conversations`, {
      method: 'POST',
      headers: AUTH,
      body: JSON.stringify({ agent, workspace: { working_dir: '.' } }),
    });
    const { workspace } = (await created.json()) as { workspace: { working_dir: string } };
    const outer = join(workspace.working_dir, 'nested-git');
    await repositoryWithUnreadableNested(outer, ['damaged']);
    const { page, problems, close } = await openTestPage(browser, {
      origin: server.url,
      html: '<!doctype html><html><body><script type="module" src="./page.js"></script></body></html>',
      script,
    });
    try {
      await page.goto(`${server.url}/__test__/`);
      await page.waitForFunction(() => 'xTest' in window);

      const answer = await page.evaluate(([key, path]) => xTest.gitChanges(key, path), [KEY, outer] as const);

      // Same-origin, the page's fetch shows every response header: no Access-Control-Expose-Headers is needed.
      expect(answer.unreadable).toEqual(['damaged']);
      expect(answer.paths).toContain('top.txt');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
