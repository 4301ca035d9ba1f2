import { describe, expect, it } from 'vitest';
import { createRequest, finishReply } from '../helpers.js';
import { eventually, useViewerFixture } from './viewer-fixture.js';

const viewer = useViewerFixture();

describe('viewer: a fork compared with its origin', () => {
  it('shows both branches side by side: actions, outcome, final message', async () => {
    const server = await viewer.start();
    const idle = (id: string) => viewer.waitForStatus(server, id, 'finished');
    server.llm.push(finishReply('The original answer.'));
    const created = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { initial_message: { content: [{ type: 'text', text: 'go' }], run: true } }),
      viewer.auth,
    );
    const origin = (created.json as { id: string }).id;
    await idle(origin);
    // Forked at the user's message: the origin's answer comes after the shared events, as the fork's does.
    const messages = await server.call(
      'GET',
      `/api/conversations/${origin}/events/search?kind=MessageEvent`,
      undefined,
      viewer.auth,
    );
    const items = (messages.json as { items: { id: string; source: string }[] }).items;
    const message = items.find((event) => event.source === 'user');
    const forked = await server.call(
      'POST',
      `/api/conversations/${origin}/fork`,
      { from_event_id: message?.id },
      viewer.auth,
    );
    expect(forked.status).toBe(201);
    const fork = (forked.json as { id: string }).id;
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo other' } }] },
      finishReply('The counterfactual answer.'),
    );
    await server.call('POST', `/api/conversations/${fork}/run`, undefined, viewer.auth);
    await idle(fork);

    const { page, problems } = await viewer.open(server, `#/c/${fork}`);
    const link = page.getByTestId('compare-link');
    await eventually(() => link.count()).toBe(1);
    await link.click();
    const b = page.getByTestId('compare-b-final');
    await eventually(() => b.count()).toBe(1);
    expect(await page.getByTestId('compare-a-final').textContent()).toBe('The original answer.');
    expect(await b.textContent()).toBe('The counterfactual answer.');
    expect(await page.getByTestId('compare-b-actions').textContent()).toContain('terminal');
    expect(await page.getByTestId('compare-b-status').textContent()).toBe('finished');
    expect(problems).toEqual([]);
  });
});
