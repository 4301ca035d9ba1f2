import { describe, expect, it } from 'vitest';
import { createRequest } from '../helpers.js';
import { eventually, useViewerFixture } from './viewer-fixture.js';

const viewer = useViewerFixture();

describe('viewer: session state and artifacts', () => {
  it('shows the session state and the latest artifact versions, and follows a change live', async () => {
    const server = await viewer.start();
    const created = await server.call('POST', '/api/conversations', createRequest(server.llm), viewer.auth);
    expect(created.status).toBe(201);
    const id = (created.json as { id: string }).id;
    const base = `/api/conversations/${id}`;
    await server.call('PATCH', `${base}/session`, { state_delta: { owner: 'ada' } }, viewer.auth);
    await server.call('POST', `${base}/artifacts/plan.md`, { text: 'one' }, viewer.auth);
    await server.call('POST', `${base}/artifacts/plan.md`, { text: 'two' }, viewer.auth);

    const { page, problems } = await viewer.open(server, `#/c/${id}`);
    const panel = page.getByTestId('session-panel');
    await eventually(() => panel.count()).toBe(1);
    expect(await panel.textContent()).toContain('owner"ada"');
    expect(await panel.textContent()).toContain('plan.md v2');

    await server.call('PATCH', `${base}/session`, { state_delta: { stage: 'review' } }, viewer.auth);
    await eventually(async () => (await panel.textContent()) ?? '').toContain('stage"review"');
    expect(problems).toEqual([]);
  });
});
