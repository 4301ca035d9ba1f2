import { describe, expect, it } from 'vitest';
import { createRequest } from '../helpers.js';
import { eventually, useViewerFixture } from './viewer-fixture.js';

const viewer = useViewerFixture();

describe('viewer: a budget stop', () => {
  it('shows a banner with the figures on the conversation page', async () => {
    const server = await viewer.start();
    // A model without a price under a budget: the run stops before its first call.
    const { status, json } = await server.call(
      'POST',
      '/api/conversations',
      createRequest(server.llm, { budget: { max_usd: 1 }, initial_message: { content: 'go' } }),
      viewer.auth,
    );
    expect(status).toBe(201);
    const id = (json as { id: string }).id;
    await viewer.waitForStatus(server, id, 'error');

    const { page, problems } = await viewer.open(server, `#/c/${id}`);
    const banner = page.getByTestId('budget-stop');
    await eventually(() => banner.count()).toBe(1);
    expect(await banner.textContent()).toContain("spend is unknown (model 'gpt-test' has no known price");
    expect(problems).toEqual([]);
  });
});
