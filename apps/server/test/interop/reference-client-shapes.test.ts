import { safeParseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { finishReply, waitFor } from '../helpers.js';
import {
  api,
  type Info,
  referenceCreateBody,
  runToCompletion,
  server,
  setUpReferenceServer,
  subscribe,
} from './reference-client.js';

// The reference's RemoteConversation calls against our server (setup and the client's calls: reference-client.ts).
setUpReferenceServer();

describe('the reference RemoteConversation against our server', () => {
  it('create (with secrets), send, run, stream, search, pause + resume, confirmation + reject, ask_agent', async () => {
    const created = await api(
      'POST',
      '/api/conversations',
      referenceCreateBody({ secrets: { GH_TOKEN: { kind: 'StaticSecret', value: 'ghp-secret', description: null } } }),
    );
    expect(created.status).toBe(201);
    const id = (created.json as Info).id as string;
    expect(
      (created.json as { secret_registry: { secret_sources: Info } }).secret_registry.secret_sources,
    ).toHaveProperty('GH_TOKEN');
    expect(JSON.stringify(created.json)).not.toContain('ghp-secret');

    const socket = subscribe(id);
    await socket.waitFor((frames) => frames.some((frame) => frame.kind === 'ConversationStateUpdateEvent'));

    const sent = await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'hello' }],
      run: false,
      sender: null,
    });
    expect(sent.json).toEqual({ success: true });
    server.llm.push(finishReply('hi there'));
    expect((await runToCompletion(socket, id)).execution_status).toBe('finished');

    // Every frame parses with the reference's field sets.
    for (const frame of socket.frames) expect(safeParseEvent(frame).success).toBe(true);

    // Full sync as the client does it: search pages of 100 until no next_page_id.
    const page = await api('GET', `/api/conversations/${id}/events/search?limit=100`);
    const items = (page.json as { items: Info[]; next_page_id: string | null }).items;
    expect(items.map((event) => event.kind)).toContain('MessageEvent');
    expect((page.json as Info).next_page_id).toBeNull();

    // pause() then run() at once: the paused step finishes, and the run resumes instead of a 409.
    await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'more' }],
      run: false,
    });
    // The step's model answer is held until the pause is in and the run is sent (that run waits for the paused
    // step to end), so both land mid-step on any machine.
    let answer: () => void = () => undefined;
    const bothSent = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo step' } }], gate: bothSent },
      finishReply('resumed'),
    );
    const requestsBefore = server.llm.requests.length;
    await api('POST', `/api/conversations/${id}/run`);
    expect((await api('POST', `/api/conversations/${id}/pause`)).status).toBe(200);
    const resuming = api('POST', `/api/conversations/${id}/run`);
    answer();
    const resumed = await resuming;
    expect(resumed.status).toBe(200);
    await waitFor(
      async () => ((await api('GET', `/api/conversations/${id}`)).json as Info).execution_status === 'finished',
    );
    // Both steps ran: the paused one, then the resumed run's.
    expect(server.llm.requests.length - requestsBefore).toBe(2);

    // Confirmation: AlwaysConfirm, then reject the pending action.
    expect(
      (await api('POST', `/api/conversations/${id}/confirmation_policy`, { policy: { kind: 'AlwaysConfirm' } })).status,
    ).toBe(200);
    await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'ls' }],
      run: false,
    });
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'ls' } }] });
    await api('POST', `/api/conversations/${id}/run`);
    await waitFor(
      async () =>
        ((await api('GET', `/api/conversations/${id}`)).json as Info).execution_status === 'waiting_for_confirmation',
    );
    const rejected = await api('POST', `/api/conversations/${id}/events/respond_to_confirmation`, {
      accept: false,
      reason: 'not now',
    });
    expect(rejected.json).toEqual({ success: true });
    const rejections = await api(
      'GET',
      `/api/conversations/${id}/events/search?kind=openhands.sdk.event.llm_convertible.observation.UserRejectObservation`,
    );
    expect((rejections.json as { items: Info[] }).items[0]?.rejection_reason).toBe('not now');

    server.llm.push({ content: 'forty-two' });
    expect((await api('POST', `/api/conversations/${id}/ask_agent`, { question: 'answer?' })).json).toEqual({
      response: 'forty-two',
    });
    socket.ws.close();
  });

  it('secrets and security_analyzer with the reference bodies', async () => {
    const id = ((await api('POST', '/api/conversations', referenceCreateBody())).json as Info).id as string;
    const updated = await api('POST', `/api/conversations/${id}/secrets`, {
      secrets: {
        PLAIN: 'one',
        WRAPPED: { value: 'two' },
        STATIC: { kind: 'StaticSecret', value: 'three', description: 'the third' },
      },
    });
    expect(updated.json).toEqual({ success: true });
    const info = (await api('GET', `/api/conversations/${id}`)).json as { secret_registry: { secret_sources: Info } };
    expect(Object.keys(info.secret_registry.secret_sources).sort()).toEqual(['PLAIN', 'STATIC', 'WRAPPED']);
    expect(JSON.stringify(info)).not.toMatch(/"(one|two|three)"/);

    const lookup = await api('POST', `/api/conversations/${id}/secrets`, {
      secrets: { REMOTE: { kind: 'LookupSecret', url: 'http://127.0.0.1:1/x', headers: {} } },
    });
    expect(lookup.status).toBe(422);
    expect(JSON.stringify(lookup.json)).toContain("the reference's LookupSecret");
    // The same without its kind is refused too, rather than kept as a secret with no value.
    const kindless = await api('POST', `/api/conversations/${id}/secrets`, {
      secrets: { REMOTE: { url: 'http://127.0.0.1:1/x', headers: { Authorization: 'Bearer t' } } },
    });
    expect(kindless.status).toBe(422);
    expect(JSON.stringify(kindless.json)).toContain("the reference's LookupSecret");

    expect(
      (
        await api('POST', `/api/conversations/${id}/security_analyzer`, {
          security_analyzer: { kind: 'LLMSecurityAnalyzer' },
        })
      ).json,
    ).toEqual({ success: true });
    expect(((await api('GET', `/api/conversations/${id}`)).json as Info).security_analyzer).toEqual({
      kind: 'LLMSecurityAnalyzer',
    });
    expect((await api('POST', `/api/conversations/${id}/security_analyzer`, { security_analyzer: null })).status).toBe(
      200,
    );
    expect(((await api('GET', `/api/conversations/${id}`)).json as Info).security_analyzer).toBeNull();
    const unknown = await api('POST', `/api/conversations/${id}/security_analyzer`, {
      security_analyzer: { kind: 'GraySwanAnalyzer' },
    });
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(unknown.json)).toContain('GraySwanAnalyzer');
  });

  it('fork (whole, and from an event) and navigate, with the reference bodies and status codes', async () => {
    const id = ((await api('POST', '/api/conversations', referenceCreateBody())).json as Info).id as string;
    server.llm.push(finishReply('first'));
    await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'one' }],
      run: true,
    });
    await waitFor(
      async () => ((await api('GET', `/api/conversations/${id}`)).json as Info).execution_status === 'finished',
    );
    const events = ((await api('GET', `/api/conversations/${id}/events/search?limit=100`)).json as { items: Info[] })
      .items;
    const firstMessage = events.find((event) => event.kind === 'MessageEvent') as Info;

    const whole = await api('POST', `/api/conversations/${id}/fork`, { reset_metrics: true });
    expect(whole.status).toBe(201);
    const wholeInfo = whole.json as Info;
    expect(wholeInfo.id).not.toBe(id);
    expect(wholeInfo.forked_from_conversation_id).toBe(id);
    expect(wholeInfo.execution_status).toBe('idle');
    const wholeEvents = (
      (await api('GET', `/api/conversations/${wholeInfo.id}/events/search?limit=100`)).json as { items: Info[] }
    ).items;
    expect(wholeEvents.slice(0, events.length).map((event) => event.id)).toEqual(events.map((event) => event.id));

    const forkId = '0f0e0d0c-0b0a-4909-8807-060504030201';
    const partial = await api('POST', `/api/conversations/${id}/fork`, {
      id: forkId,
      title: 'Branch',
      tags: { topic: 'x' },
      reset_metrics: false,
      from_event_id: firstMessage.id,
    });
    expect(partial.status).toBe(201);
    expect(partial.json).toMatchObject({
      id: forkId,
      title: 'Branch',
      tags: { topic: 'x' },
      leaf_event_id: firstMessage.id,
      forked_from_event_id: firstMessage.id,
    });
    expect((await api('POST', `/api/conversations/${id}/fork`, { id: forkId })).status).toBe(409);
    expect((await api('POST', `/api/conversations/${id}/fork`, { from_event_id: 'no-such-event' })).status).toBe(404);
    expect((await api('POST', '/api/conversations/00000000-0000-4000-8000-000000000000/fork', {})).status).toBe(404);

    const navigated = await api('POST', `/api/conversations/${id}/navigate`, { event_id: firstMessage.id });
    expect(navigated.status).toBe(200);
    expect((navigated.json as Info).leaf_event_id).toBe(firstMessage.id);
    expect(((await api('GET', `/api/conversations/${id}`)).json as Info).leaf_event_id).toBe(firstMessage.id);
    expect((await api('POST', `/api/conversations/${id}/navigate`, { event_id: 'nope' })).status).toBe(404);
    const empty = await api('POST', `/api/conversations/${id}/navigate`, { event_id: null });
    expect((empty.json as Info).leaf_event_id).toBeNull();

    // A sibling branch: the next message answers the navigated-to event.
    await api('POST', `/api/conversations/${id}/navigate`, { event_id: firstMessage.id });
    await api('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'two' }],
      run: false,
    });
    const after = (
      (await api('GET', `/api/conversations/${id}/events/search?sort_order=TIMESTAMP_DESC&limit=1`)).json as {
        items: Info[];
      }
    ).items[0] as Info;
    expect(after.parent_id).toBe(firstMessage.id);
  });
});
