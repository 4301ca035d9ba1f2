import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { createEvent, serializeEvent } from '@x/events';
import { eventFileName } from '@x/store';
import type { Page, WebSocket } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { finishReply, startTestServer, tempDir, waitForIdle } from '../helpers.js';
import { renderedEventIds, screenshot } from './browser.js';
import { card, eventually, gate, useViewerFixture } from './viewer-fixture.js';

const viewer = useViewerFixture();

/** Every event socket the page opens: its `from_index` and the ids of the frames it received, in order. */
function recordSockets(page: Page): { fromIndex: number; ids: string[] }[] {
  const sockets: { fromIndex: number; ids: string[] }[] = [];
  page.on('websocket', (socket: WebSocket) => {
    if (!socket.url().includes('/sockets/events/')) return;
    const record = { fromIndex: Number(new URL(socket.url()).searchParams.get('from_index')), ids: [] as string[] };
    sockets.push(record);
    socket.on('framereceived', ({ payload }) => {
      const frame = JSON.parse(String(payload)) as { id?: string };
      if (typeof frame.id === 'string') record.ids.push(frame.id);
    });
  });
  return sockets;
}

// A real browser on a machine other jobs share: generous limits (the assertions themselves are not timed).
describe('web viewer: resuming and long conversations, in chromium', { timeout: 180_000 }, () => {
  it('shows every event exactly once after a reload in the middle of a run', async () => {
    const s = await viewer.start();
    const secondStep = gate();
    s.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo first-step' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo second-step' } }], gate: secondStep.opened },
      finishReply('Finished after the reload.'),
    );
    const id = await viewer.create(s);
    const { page } = await viewer.open(s, `#/c/${id}`);
    const message = { role: 'user', content: [{ type: 'text', text: 'go' }], run: true };
    await s.call('POST', `/api/conversations/${id}/events`, message, viewer.auth);
    await eventually(() => card(page, 'first-step').count()).toBeGreaterThan(0);

    await page.reload();
    secondStep.open();
    // The key survives the reload (same tab session): no second prompt.
    await eventually(() => card(page, 'Finished after the reload.').count()).toBe(1);
    await waitForIdle(s, id);
    const expected = await viewer.restEventIds(s, id);
    await eventually(() => renderedEventIds(page)).toEqual(expected);
    expect(new Set(await renderedEventIds(page)).size).toBe(expected.length);
  });

  it('resumes by log index after its socket drops in the middle of a run: no gap, no duplicate', async () => {
    const s = await viewer.start();
    // Remember the raw sockets of WebSocket upgrades, so the test can cut them as a network failure would.
    const upgraded: Duplex[] = [];
    s.built.app.server.on('upgrade', (_request, socket: Duplex) => upgraded.push(socket));
    const afterDrop = gate();
    s.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo before-drop' } }] },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo after-drop' } }], gate: afterDrop.opened },
      finishReply('Finished after the drop.'),
    );
    const id = await viewer.create(s);
    const opened = await viewer.open(s, '#/');
    const sockets = recordSockets(opened.page);
    const { page } = opened;
    await page.goto(`${s.url}/#/c/${id}`);
    await eventually(() => page.locator('.connection').textContent()).toBe('live');
    const message = { role: 'user', content: [{ type: 'text', text: 'go' }], run: true };
    await s.call('POST', `/api/conversations/${id}/events`, message, viewer.auth);
    await eventually(() => card(page, 'before-drop').count()).toBeGreaterThan(0);

    const cut = upgraded.length;
    for (const socket of upgraded) socket.destroy();
    await eventually(() => upgraded.length).toBeGreaterThan(cut);
    afterDrop.open();
    await eventually(() => card(page, 'Finished after the drop.').count()).toBe(1);
    await waitForIdle(s, id);
    const expected = await viewer.restEventIds(s, id);
    await eventually(() => renderedEventIds(page)).toEqual(expected);
    expect(await card(page, 'after-drop').count()).toBeGreaterThan(0);

    // On the wire: each reconnection asks for the index after the last persisted event received, so the
    // persisted frames of all the sockets, in order, are the log from the first socket's index, each once.
    const log = await viewer.restEventIds(s, id, { drawn: false });
    const persisted = sockets.map((socket) => socket.ids.filter((eventId) => log.includes(eventId)));
    expect(sockets.length).toBeGreaterThan(1);
    for (let index = 1; index < sockets.length; index++) {
      const previous = sockets[index - 1]!;
      expect(sockets[index]?.fromIndex).toBe(previous.fromIndex + (persisted[index - 1]?.length ?? 0));
    }
    expect(persisted.flat()).toEqual(log.slice(sockets[0]?.fromIndex));
  });

  it('opens a 10,000-event conversation from its newest events, not index 0, and loads older pages on scrolling up', async () => {
    const dataDir = await tempDir();
    const first = await startTestServer({ dataDir, config: { apiKeys: [viewer.key] } });
    const id = await viewer.create(first);
    await first.stop();
    const eventsDir = join(dataDir, 'conversations', id.replace(/-/g, ''), 'events');
    const existing = (await readdir(eventsDir).catch(() => [])).filter((name) => name.endsWith('.json')).length;
    const writes: Promise<void>[] = [];
    for (let index = 0; index < 10_000; index++) {
      const event = createEvent('MessageEvent', {
        source: index % 2 === 0 ? 'user' : 'agent',
        llm_message: {
          role: index % 2 === 0 ? 'user' : 'assistant',
          content: [{ type: 'text', text: `message number ${index}` }],
        },
      });
      writes.push(writeFile(join(eventsDir, eventFileName(existing + index, event.id)), serializeEvent(event)));
    }
    await Promise.all(writes);
    const server = await viewer.start({ dataDir });
    const total = existing + 10_000;
    expect((await server.call('GET', `/api/conversations/${id}/events/count`, undefined, viewer.auth)).json).toBe(
      total,
    );

    const { page } = await viewer.open(server, `#/c/${id}`);
    // The first open's requests must be over before counting: only the reload's are asserted on.
    await eventually(() => card(page, 'message number 9999').count()).toBe(1);
    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/events/search')) searches.push(request.url());
    });
    const sockets = recordSockets(page);
    await page.reload();
    await eventually(() => card(page, 'message number 9999').count()).toBe(1);
    // The newest page comes over the socket from index total - 50: nothing from index 0. On a slow machine the
    // timeline can sit at its top for a moment before it scrolls to the newest event, and the viewer may then fetch
    // one older page by itself: the newest 50 are what the socket gave, any page before them came from the search.
    const initial = (await renderedEventIds(page)).slice(-50);
    expect(sockets.map((socket) => socket.fromIndex)).toEqual([total - 50]);
    expect(sockets[0]?.ids.filter((eventId) => initial.includes(eventId))).toEqual(initial);
    expect(initial).toHaveLength(50);
    for (const search of searches) expect(search).toContain('page_id=');
    await screenshot(page, 'long-conversation');

    const before = (await renderedEventIds(page)).length;
    await page.locator('.timeline').evaluate((element) => {
      element.scrollTop = 0;
    });
    await eventually(() => renderedEventIds(page).then((ids) => ids.length)).toBeGreaterThan(before);
    expect(searches.length).toBeGreaterThan(0);
    expect(searches[0]).toContain('page_id=');
    const more = await renderedEventIds(page);
    // Earlier events were prepended in log order, the newest page kept as it was.
    expect(more.slice(-initial.length)).toEqual(initial);
    expect(new Set(more).size).toBe(more.length);
    expect(await card(page, `message number ${9999 - more.length + 1}`).count()).toBe(1);
  }, 180_000);
});
