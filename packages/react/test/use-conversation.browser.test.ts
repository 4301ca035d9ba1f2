import { fileURLToPath } from 'node:url';
import { bundleForBrowser, launchChromium, openTestPage, startXServe, type XServe } from '@x/browser-testing';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const KEY = 'react-hook-key';
const AUTH = { 'x-session-api-key': KEY, 'content-type': 'application/json' };
const terminal = (command: string) => ({ toolCalls: [{ name: 'terminal', arguments: { command } }] });

declare function mount(props: { conversationId: string; apiKey: string; fromIndex?: number }): void;
declare function unmount(): void;

/** Polls until the assertion holds: generous, because the machine running the suite may be heavily loaded. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 60_000, interval: 50 });

let browser: Browser;
let server: XServe;
let script: string;

beforeAll(async () => {
  [browser, server, { code: script }] = await Promise.all([
    launchChromium(),
    startXServe({ apiKey: KEY }),
    bundleForBrowser({ entry: fileURLToPath(new URL('./fixtures/hook-page.tsx', import.meta.url)) }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function call(method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: AUTH,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(response.status, `${method} ${path}`).toBeLessThan(300);
  return (await response.json()) as Record<string, unknown>;
}

async function restEventIds(id: string): Promise<string[]> {
  const ids: string[] = [];
  let pageId: string | null = null;
  do {
    const query: string = pageId === null ? '' : `&page_id=${pageId}`;
    const page = (await call('GET', `/api/conversations/${id}/events/search?limit=100${query}`)) as {
      items: { id: string }[];
      next_page_id: string | null;
    };
    ids.push(...page.items.map((event) => event.id));
    pageId = page.next_page_id;
  } while (pageId !== null);
  return ids;
}

const text = async (page: Page, selector: string) => (await page.locator(selector).textContent()) ?? '';
const rendered = (page: Page) =>
  page.$$eval('#events li', (items) =>
    items.map((item) => ({ index: Number(item.getAttribute('data-index')), id: item.getAttribute('data-id') ?? '' })),
  );
/**
 * The event ids the page shows once they equal the log's as it stands at that moment. A run writes its end record
 * just after its status says `finished`, so ids read from the log once, at that status, can miss it.
 */
async function settledIds(page: Page, id: string): Promise<string[]> {
  let shown: string[] = [];
  await eventually(async () => {
    shown = (await rendered(page)).map((event) => event.id);
    return JSON.stringify(shown) === JSON.stringify(await restEventIds(id));
  }).toBe(true);
  return shown;
}

const kinds = (page: Page) => page.$$eval('#events li', (items) => items.map((item) => item.textContent ?? ''));

describe('useConversation in a React page, in Chromium against x serve', () => {
  it('shows the log live, sends, confirms and rejects, and resumes by index after a dropped socket', async () => {
    const created = await call('POST', '/api/conversations', {
      agent: {
        llm: { model: 'offline' },
        tools: [{ name: 'TerminalTool' }],
        x_offline_script: [
          terminal('echo rejected-one'),
          terminal('echo confirmed-two'),
          { content: 'all done' },
          { content: 'after the gap' },
        ],
      },
      confirmation_policy: { kind: 'AlwaysConfirm' },
      initial_message: null,
    });
    const id = created.id as string;
    const { page, problems, gate, close } = await openTestPage(browser, {
      origin: server.url,
      html: '<!doctype html><html><body><div id="root"></div><script type="module" src="./page.js"></script></body></html>',
      script,
    });
    try {
      await page.goto(`${server.url}/__test__/`);
      await page.waitForFunction(() => 'mount' in window);
      await page.evaluate(([conversationId, apiKey]) => mount({ conversationId, apiKey }), [id, KEY] as const);
      await eventually(() => text(page, '#connection')).toBe('open');
      await eventually(() => text(page, '#status')).toBe('idle');

      // send: the agent asks to run a command, and the page shows it pending.
      await page.getByRole('button', { name: 'Send' }).click();
      await eventually(() => text(page, '#status')).toBe('waiting_for_confirmation');
      await eventually(() => page.locator('#pending li').allTextContents()).toEqual(['terminal']);

      // reject: recorded, nothing pending.
      await page.getByRole('button', { name: 'Reject' }).click();
      await eventually(() => kinds(page)).toContain('UserRejectObservation');
      await eventually(() => page.locator('#pending li').count()).toBe(0);

      // run: the next action waits; confirm: it runs, and the run finishes.
      await page.getByRole('button', { name: 'Run' }).click();
      await eventually(() => page.locator('#pending li').allTextContents()).toEqual(['terminal']);
      await page.getByRole('button', { name: 'Confirm' }).click();
      await eventually(() => text(page, '#status')).toBe('finished');
      await eventually(() => kinds(page)).toContain('ObservationEvent');
      expect(await page.locator('#pending li').count()).toBe(0);
      const before = await settledIds(page, id);

      // The socket drops; the log grows meanwhile; the hook resumes from the next index.
      await gate.dropAndHold();
      await eventually(() => text(page, '#connection')).toBe('reconnecting');
      await call('POST', `/api/conversations/${id}/events`, {
        role: 'user',
        content: [{ type: 'text', text: 'more' }],
        run: true,
      });
      await eventually(async () => (await call('GET', `/api/conversations/${id}`)).execution_status).toBe('finished');
      expect((await restEventIds(id)).length).toBeGreaterThan(before.length);
      gate.release();
      const after = await settledIds(page, id);
      expect(after.length).toBeGreaterThan(before.length);
      await eventually(() => text(page, '#connection')).toBe('open');
      const events = await rendered(page);
      expect(events.map((event) => event.index)).toEqual(after.map((_, index) => index));
      expect(await text(page, '#status')).toBe('finished');
      expect(await text(page, '#error')).toBe('');
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('starts at fromIndex from the end, loads older events on demand, and resumes by index after a drop', async () => {
    const created = await call('POST', '/api/conversations', {
      agent: { llm: { model: 'offline' }, tools: [], x_offline_script: [] },
      initial_message: null,
    });
    const id = created.id as string;
    const say = (text: string) =>
      call('POST', `/api/conversations/${id}/events`, { role: 'user', content: [{ type: 'text', text }], run: false });
    for (let message = 0; message < 7; message++) await say(`message ${message}`);
    const all = await restEventIds(id);
    expect(all.length).toBeGreaterThanOrEqual(7);
    const { page, problems, gate, close } = await openTestPage(browser, {
      origin: server.url,
      html: '<!doctype html><html><body><div id="root"></div><script type="module" src="./page.js"></script></body></html>',
      script,
    });
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(new URL(socket.url()).searchParams.get('from_index') ?? ''));
    try {
      await page.goto(`${server.url}/__test__/`);
      await page.waitForFunction(() => 'mount' in window);
      await page.evaluate(([conversationId, apiKey]) => mount({ conversationId, apiKey, fromIndex: -3 }), [
        id,
        KEY,
      ] as const);
      await eventually(() => text(page, '#connection')).toBe('open');
      // Only the last three events, at their log indexes: nothing from index 0.
      const tail = all.length - 3;
      await eventually(() => rendered(page)).toEqual(
        all.slice(tail).map((eventId, i) => ({ index: tail + i, id: eventId })),
      );
      expect(sockets.length).toBeGreaterThan(0);
      expect(sockets.every((from) => Number(from) >= tail)).toBe(true);
      expect(await text(page, '#has-older')).toBe('true');

      // Older events, two at a time, in front of those held, up to index 0.
      await page.getByRole('button', { name: 'Older' }).click();
      await eventually(async () => (await rendered(page)).length).toBe(5);
      while ((await text(page, '#has-older')) === 'true') {
        const held = (await rendered(page)).length;
        await page.getByRole('button', { name: 'Older' }).click();
        await eventually(async () => (await rendered(page)).length).toBeGreaterThan(held);
      }
      await eventually(() => rendered(page)).toEqual(all.map((eventId, index) => ({ index, id: eventId })));

      // The socket drops; the log grows; the stream resumes after the last event held, not from the window's start.
      await gate.dropAndHold();
      await eventually(() => text(page, '#connection')).toBe('reconnecting');
      await say('during the gap');
      const after = await restEventIds(id);
      gate.release();
      await eventually(() => rendered(page)).toEqual(after.map((eventId, index) => ({ index, id: eventId })));
      await eventually(() => text(page, '#connection')).toBe('open');
      expect(Number(sockets.at(-1))).toBe(all.length);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('follows another conversation when its id changes, and closes its stream when unmounted', async () => {
    const conversations: string[] = [];
    for (const text of ['first conversation', 'second conversation']) {
      const created = await call('POST', '/api/conversations', {
        agent: { llm: { model: 'offline' }, tools: [], x_offline_script: [] },
        initial_message: null,
      });
      await call('POST', `/api/conversations/${created.id}/events`, {
        role: 'user',
        content: [{ type: 'text', text }],
        run: false,
      });
      conversations.push(created.id as string);
    }
    const [first, second] = conversations as [string, string];
    const { page, problems, close } = await openTestPage(browser, {
      origin: server.url,
      html: '<!doctype html><html><body><div id="root"></div><script type="module" src="./page.js"></script></body></html>',
      script,
    });
    // The page's event sockets still open, by the conversation they follow.
    const open: string[] = [];
    page.on('websocket', (socket) => {
      const followed = new URL(socket.url()).pathname.split('/').at(-1) ?? '';
      open.push(followed);
      socket.on('close', () => open.splice(open.indexOf(followed), 1));
    });
    try {
      await page.goto(`${server.url}/__test__/`);
      await page.waitForFunction(() => 'mount' in window);
      await page.evaluate(([conversationId, apiKey]) => mount({ conversationId, apiKey }), [first, KEY] as const);
      await eventually(() => rendered(page)).toEqual(
        (await restEventIds(first)).map((eventId, index) => ({ index, id: eventId })),
      );
      await page.evaluate(([conversationId, apiKey]) => mount({ conversationId, apiKey }), [second, KEY] as const);
      await eventually(() => rendered(page)).toEqual(
        (await restEventIds(second)).map((eventId, index) => ({ index, id: eventId })),
      );
      await eventually(() => [...open]).toEqual([second]);
      await page.evaluate(() => unmount());
      await eventually(() => [...open]).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });
});
