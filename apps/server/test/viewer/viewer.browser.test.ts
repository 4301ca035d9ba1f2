import { describe, expect, it } from 'vitest';
import { createRequest, finishReply, waitForIdle } from '../helpers.js';
import { renderedEventIds, screenshot } from './browser.js';
import { card, eventually, gate, useViewerFixture } from './viewer-fixture.js';

const viewer = useViewerFixture();

// A real browser on a machine other jobs share: generous limits (the assertions themselves are not timed).
describe('web viewer in chromium', { timeout: 180_000 }, () => {
  it('asks for the key once and lists conversations, searchable, with status and cost', async () => {
    const s = await viewer.start();
    const alpha = await viewer.create(s);
    const beta = await viewer.create(s);
    await s.call('PATCH', `/api/conversations/${alpha}`, { title: 'Alpha report' }, viewer.auth);
    await s.call('PATCH', `/api/conversations/${beta}`, { title: 'Beta notes' }, viewer.auth);

    const { page, problems } = await viewer.open(s);
    const rows = page.locator('table.conversations tbody tr');
    await eventually(() => rows.count()).toBe(2);
    await eventually(() => page.locator('table.conversations').textContent()).toContain('Alpha report');
    expect(await page.locator('table.conversations').textContent()).toMatch(/idle/);
    expect(await page.locator('table.conversations').textContent()).toContain('$0.0000');
    // The key is in this tab's sessionStorage, never in the URL.
    expect(page.url()).not.toContain(viewer.key);
    expect(await page.evaluate('Object.values(sessionStorage)')).toContain(viewer.key);
    await screenshot(page, 'list');

    await page.getByLabel('Search conversations').fill('beta');
    await eventually(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Beta notes');

    // Live: a new conversation shows up without a reload.
    await page.getByLabel('Search conversations').fill('');
    await viewer.create(s);
    await eventually(() => rows.count()).toBe(3);
    expect(problems).toEqual([]);
  });

  it('searches every conversation on the server, not only the loaded page', async () => {
    const s = await viewer.start();
    const oldest = await viewer.create(s);
    await s.call('PATCH', `/api/conversations/${oldest}`, { title: 'Needle in the haystack' }, viewer.auth);
    // More newer conversations than one page of the list (25) holds: the oldest is not loaded.
    for (let index = 0; index < 26; index += 1) await viewer.create(s);

    const { page, problems } = await viewer.open(s);
    const rows = page.locator('table.conversations tbody tr');
    await eventually(() => rows.count()).toBe(25);
    expect(await page.locator('table.conversations').textContent()).not.toContain('Needle in the haystack');

    const searches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/conversations/search')) searches.push(request.url());
    });
    await page.getByLabel('Search conversations').fill('NEEDLE');
    await eventually(() => rows.count()).toBe(1);
    expect(await rows.first().getAttribute('data-conversation-id')).toBe(oldest);
    expect(await rows.first().textContent()).toContain('Needle in the haystack');
    expect(searches.some((url) => new URL(url).searchParams.get('q') === 'NEEDLE')).toBe(true);

    await page.getByLabel('Search conversations').fill('');
    await eventually(() => rows.count()).toBe(25);
    expect(problems).toEqual([]);
  });

  it('shows a run live, event by event, from a message sent in the page', async () => {
    const s = await viewer.start();
    const lastStep = gate();
    s.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo live-$((40+2))' } }] },
      { ...finishReply('All **done**.'), gate: lastStep.opened },
    );
    const id = await viewer.create(s);
    const { page, problems } = await viewer.open(s, `#/c/${id}`);
    await page.getByLabel('Message').fill('Please run the check');
    await page.getByRole('button', { name: 'Send' }).click();

    // While the agent's last step is still pending, the earlier events are already on screen.
    await eventually(() => card(page, 'live-42').count()).toBe(1);
    expect(await card(page, 'Please run the check').count()).toBe(1);
    expect(await card(page, 'exit code 0').count()).toBe(1);
    expect(await page.getByTestId('status').textContent()).toBe('running');
    expect(await card(page, 'All done').count()).toBe(0);
    lastStep.open();

    await eventually(() => card(page, 'All done').count()).toBeGreaterThan(0);
    expect(await page.locator('.timeline strong', { hasText: 'done' }).count()).toBeGreaterThan(0);
    await eventually(() => page.getByTestId('status').textContent()).toBe('finished');
    await screenshot(page, 'conversation');
    expect(await renderedEventIds(page)).toEqual(await viewer.restEventIds(s, id));
    expect(problems).toEqual([]);
  });

  it('starts a conversation from the form on the list, runs its task and opens it', async () => {
    const s = await viewer.start();
    s.llm.push(finishReply('Started from the **form**.'));
    const { page, problems } = await viewer.open(s);
    await page.getByRole('button', { name: 'New conversation' }).click();
    const form = page.getByRole('form', { name: 'New conversation' });
    await form.getByLabel('Task').fill('Say hello from the form');
    await form.getByLabel('Model').fill('gpt-test');
    await form.getByLabel('Base URL').fill(s.llm.baseURL);
    await form.getByLabel('API key').fill('sk-test');
    await screenshot(page, 'new-conversation-form');
    await form.getByRole('button', { name: 'Start' }).click();

    await eventually(() => new URL(page.url()).hash).toMatch(/^#\/c\//);
    const id = decodeURIComponent(new URL(page.url()).hash.slice('#/c/'.length));
    await eventually(() => card(page, 'Started from the form').count()).toBeGreaterThan(0);
    expect(await card(page, 'Say hello from the form').count()).toBe(1);
    await eventually(() => page.getByTestId('status').textContent()).toBe('finished');
    // The conversation the server holds is the one the form described.
    const { json } = await s.call('GET', `/api/conversations/${id}`, undefined, viewer.auth);
    expect(json).toMatchObject({ execution_status: 'finished', agent: { llm: { model: 'gpt-test' } } });
    expect(problems).toEqual([]);
  });

  it('renders streaming deltas as they arrive, then the final message once', async () => {
    const s = await viewer.start();
    s.llm.push({ content: 'Streaming **words** arrive one by one.' });
    const request = createRequest(s.llm);
    const agent = request.agent as { llm: Record<string, unknown> };
    agent.llm.stream = true;
    const { status, json } = await s.call('POST', '/api/conversations', request, viewer.auth);
    expect(status).toBe(201);
    const id = (json as { id: string }).id;
    const { page } = await viewer.open(s, `#/c/${id}`);
    // Record every streaming card the page draws (page.evaluate runs over the DevTools protocol, outside the CSP).
    await page.evaluate(`
      window.__streamed = [];
      new MutationObserver(() => {
        for (const card of document.querySelectorAll('article.streaming')) window.__streamed.push(card.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    `);
    await page.getByLabel('Message').fill('Stream please');
    await page.getByRole('button', { name: 'Send' }).click();
    await eventually(() => card(page, 'arrive one by one').count()).toBe(1);
    const streamed = (await page.evaluate('window.__streamed')) as string[];
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.some((text) => text.includes('Agent (streaming)'))).toBe(true);
    await eventually(() => page.locator('article.streaming').count()).toBe(0);
    expect(await page.locator('.timeline strong', { hasText: 'words' }).count()).toBe(1);
  });

  it('forks from an event with its Fork button and opens the fork, which ends at that event', async () => {
    const s = await viewer.start();
    s.llm.push(finishReply('First answer'));
    const id = await viewer.create(s);
    await s.call(
      'POST',
      `/api/conversations/${id}/events`,
      { content: [{ type: 'text', text: 'Fork me here' }], run: true },
      viewer.auth,
    );
    await waitForIdle(s, id);
    const { page, problems } = await viewer.open(s, `#/c/${id}`);
    await eventually(() => card(page, 'First answer').count()).toBeGreaterThan(0);

    await card(page, 'Fork me here').getByRole('button', { name: 'Fork' }).click();
    await eventually(() => page.url()).not.toContain(id);
    const forkId = decodeURIComponent(page.url().split('#/c/')[1] ?? '');
    const { status, json } = await s.call('GET', `/api/conversations/${forkId}`, undefined, viewer.auth);
    expect(status).toBe(200);
    const info = json as { forked_from_conversation_id: string; forked_from_event_id: string; leaf_event_id: string };
    expect(info.forked_from_conversation_id).toBe(id);
    const messageId = (await card(page, 'Fork me here').getAttribute('data-event-id')) as string;
    expect(info.forked_from_event_id).toBe(messageId);
    expect(info.leaf_event_id).toBe(messageId);

    // The fork's page shows its own events: the branch up to the message, without the answer.
    await eventually(() => card(page, 'Fork me here').count()).toBe(1);
    expect(await card(page, 'First answer').count()).toBe(0);
    await eventually(async () => renderedEventIds(page)).toEqual(await viewer.restEventIds(s, forkId));
    expect(problems).toEqual([]);
  });

  it('runs an action after its approval is clicked in the page (confirmation mode)', async () => {
    const s = await viewer.start();
    s.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo approved-$((6*7))' } }] },
      finishReply('Approved and ran it.'),
    );
    const id = await viewer.create(s, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const { page } = await viewer.open(s, `#/c/${id}`);
    await page.getByLabel('Message').fill('Run the approved command');
    await page.getByRole('button', { name: 'Send' }).click();

    const approve = page.getByRole('button', { name: 'Approve' });
    await approve.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('status').textContent()).toBe('waiting_for_confirmation');
    expect(await card(page, 'echo approved').count()).toBe(1);
    expect(await card(page, 'approved-42').count()).toBe(0);
    await screenshot(page, 'approval');
    await approve.click();

    await eventually(() => card(page, 'approved-42').count()).toBe(1);
    await eventually(() => card(page, 'Approved and ran it.').count()).toBe(1);
    await waitForIdle(s, id);
  });

  it('denies pending actions with a typed reason the model sees, and shows who decided', async () => {
    const s = await viewer.start();
    s.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo denied-$((6*7))' } }] },
      finishReply('Understood, not running it.'),
    );
    const id = await viewer.create(s, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const { page } = await viewer.open(s, `#/c/${id}`);
    await page.getByLabel('Message').fill('Run something');
    await page.getByRole('button', { name: 'Send' }).click();
    const deny = page.getByRole('button', { name: 'Deny with reason' });
    await deny.waitFor({ timeout: 60_000 });
    await page.getByLabel('Reason', { exact: true }).fill('not on this machine');
    await deny.click();
    await eventually(() => card(page, 'Understood, not running it.').count()).toBe(1);
    expect(await card(page, 'denied-42').count()).toBe(0);
    await eventually(async () => (await page.getByLabel('Decisions').textContent()) ?? '').toContain(
      'terminal: deny (not on this machine) by api-key:',
    );
    expect(JSON.stringify(s.llm.requests.at(-1))).toContain('not on this machine');
    await waitForIdle(s, id);
  });

  it('runs nothing and loads nothing remote from hostile event content', async () => {
    const s = await viewer.start();
    const id = await viewer.create(s);
    const hostile = [
      'Hello <script>window.__pwned = "script"</script>',
      '<img src="x" onerror="window.__pwned = \'img\'">',
      '[bad link](javascript:window.__pwned=1) and [good link](https://example.com/page)',
      '![tracker](https://example.com/pixel.png)',
      '<a href="#" onclick="window.__pwned = \'click\'">click me</a>',
    ].join('\n\n');
    await s.call(
      'POST',
      `/api/conversations/${id}/events`,
      {
        role: 'user',
        content: [
          { type: 'text', text: hostile },
          { type: 'image', image_urls: ['https://example.com/remote.png'] },
        ],
        run: false,
      },
      viewer.auth,
    );
    const { page, problems } = await viewer.open(s, `#/c/${id}`);
    await eventually(() => card(page, 'Hello').count()).toBe(1);
    await page.getByText('click me').click();
    await page.waitForTimeout(300);

    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    expect(
      await page
        .locator('.timeline .markdown script, .timeline .markdown img, .timeline [onerror], .timeline [onclick]')
        .count(),
    ).toBe(0);
    expect(await page.locator('.timeline a', { hasText: 'bad link' }).getAttribute('href')).toBeNull();
    const good = page.locator('.timeline a', { hasText: 'good link' });
    expect(await good.getAttribute('href')).toBe('https://example.com/page');
    expect(await good.getAttribute('target')).toBe('_blank');
    expect(await good.getAttribute('rel')).toContain('noopener');
    expect(await card(page, 'Remote image not loaded').count()).toBe(1);
    // No request ever left loopback (the page's own route guard records any attempt).
    expect(problems).toEqual([]);
    await screenshot(page, 'hostile-content');
    await page.emulateMedia({ colorScheme: 'dark' });
    await screenshot(page, 'hostile-content-dark');
  });
});
