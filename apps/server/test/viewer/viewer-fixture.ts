import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { enterKey, launchBrowser, openPage } from './browser.js';

type Json = Record<string, unknown>;

/** Polls until the assertion holds: generous, because the machine running the suite may be heavily loaded. */
export function eventually<T>(read: () => Promise<T> | T): ReturnType<typeof expect.poll<Promise<T> | T>> {
  return expect.poll(read, { timeout: 60_000, interval: 50 });
}

export interface ViewerFixture {
  /** The session key the servers accept, and the header that carries it. */
  readonly key: string;
  readonly auth: { 'X-Session-API-Key': string };
  /** The chromium of this test file. */
  readonly browser: Browser;
  /** A test server with the key (stopped and its data removed after the test); `dataDir` to reuse a directory. */
  start(options?: { dataDir?: string }): Promise<TestServer>;
  /** `POST /api/conversations` with the scripted LLM (`createRequest`) plus `extra`; returns its id. */
  create(server: TestServer, extra?: Json): Promise<string>;
  /** Opens the viewer at `hash` in a fresh context and gives the key once, as a user would. */
  open(server: TestServer, hash?: string): Promise<{ page: Page; problems: string[] }>;
  /** Polls until the conversation's status is `status`. */
  waitForStatus(server: TestServer, id: string, status: string): Promise<void>;
  /** The log's event ids by REST, in log order; `drawn`: only those the timeline draws (no state updates, tokens). */
  restEventIds(server: TestServer, id: string, options?: { drawn?: boolean }): Promise<string[]>;
}

/** The timeline's event cards that contain `text`. */
export const card = (page: Page, text: string) => page.locator('.timeline article', { hasText: text });

/** A promise the test settles by hand: a scripted model answer held with it waits for the test, not a delay. */
export function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/**
 * The viewer browser tests' shared setup: one headless chromium per file, servers that accept one key and are
 * stopped (their data removed) after each test. Call it at the top of a test file; it registers the hooks.
 */
export function useViewerFixture(key = 'viewer-test-key'): ViewerFixture {
  const auth = { 'X-Session-API-Key': key };
  let browser: Browser | undefined;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      await server.stop();
      await removeDir(server.dataDir);
    }
  });
  const fixture: ViewerFixture = {
    key,
    auth,
    get browser() {
      if (browser === undefined) throw new Error('the viewer fixture has no browser outside a test');
      return browser;
    },
    async start(options = {}) {
      const server = await startTestServer({ ...options, config: { apiKeys: [key] } });
      servers.push(server);
      return server;
    },
    async create(server, extra = {}) {
      const { status, json } = await server.call('POST', '/api/conversations', createRequest(server.llm, extra), auth);
      expect(status).toBe(201);
      return (json as { id: string }).id;
    },
    async open(server, hash = '#/') {
      const opened = await openPage(fixture.browser);
      await opened.page.goto(`${server.url}/${hash}`);
      await enterKey(opened.page, key);
      return opened;
    },
    async waitForStatus(server, id, status) {
      await eventually(
        async () =>
          (
            (await server.call('GET', `/api/conversations/${id}`, undefined, auth)).json as {
              execution_status?: string;
            }
          ).execution_status,
      ).toBe(status);
    },
    async restEventIds(server, id, { drawn = true } = {}) {
      const ids: string[] = [];
      let pageId: string | null = null;
      do {
        const query: string = pageId === null ? '' : `&page_id=${pageId}`;
        const path = `/api/conversations/${id}/events/search?limit=100${query}`;
        const page = (await server.call('GET', path, undefined, auth)).json as {
          items: { id: string; kind: string }[];
          next_page_id: string | null;
        };
        for (const event of page.items) {
          if (!drawn || (event.kind !== 'ConversationStateUpdateEvent' && event.kind !== 'TokenEvent'))
            ids.push(event.id);
        }
        pageId = page.next_page_id;
      } while (pageId !== null);
      return ids;
    },
  };
  return fixture;
}
