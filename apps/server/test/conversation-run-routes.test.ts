import { startScriptedLLMServer } from '@x/agent/testing';
import type { AnyEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitForIdle,
} from './helpers.js';

// Messages, runs, pause, interrupt and confirmation (conversation-control-routes.ts) against a real server; the
// other conversation routes are tested in conversation-routes.test.ts.
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { bodyLimit: 64 * 1024 } });
});

afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

type Info = Record<string, unknown>;

describe('messages, runs, pause and confirmation', () => {
  it('sends a message without running, then runs; a second run while running is 409', async () => {
    const id = await createConversation(server);
    const sent = await server.call('POST', `/api/conversations/${id}/events`, {
      role: 'user',
      content: [{ type: 'text', text: 'hello' }],
    });
    expect(sent).toEqual({ status: 200, json: { success: true } });
    const messages = await server.call('GET', `/api/conversations/${id}/events/search?kind=MessageEvent`);
    expect((messages.json as { items: Info[] }).items).toHaveLength(1);
    expect((await server.call('GET', `/api/conversations/${id}`)).json).toMatchObject({ execution_status: 'idle' });

    // The model answers only once the second run was refused: the run is still going, however slow the machine.
    let answer: () => void = () => undefined;
    const refused = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.llm.push({ ...finishReply('slow'), gate: refused });
    expect(await server.call('POST', `/api/conversations/${id}/run`)).toEqual({ status: 200, json: { success: true } });
    const conflict = await server.call('POST', `/api/conversations/${id}/run`);
    answer();
    expect(conflict.status).toBe(409);
    expect(conflict.json).toEqual({ detail: 'Conversation already running. Wait for completion or pause first.' });
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
  });

  it('runs on a message sent with run: true', async () => {
    const id = await createConversation(server);
    server.llm.push(finishReply('ran'));
    await server.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'go' }],
      run: true,
    });
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
  });

  it('pauses a running conversation between steps', async () => {
    // Its own model that never finishes, so nothing is left queued for the other tests.
    const endless = await startScriptedLLMServer((_body, index) => ({
      toolCalls: [{ name: 'terminal', arguments: { command: `echo step${index}` } }],
      delayMs: 100,
    }));
    try {
      const { json } = await server.call('POST', '/api/conversations', createRequest(endless));
      const id = (json as Info).id as string;
      await server.call('POST', `/api/conversations/${id}/events`, {
        content: [{ type: 'text', text: 'loop' }],
        run: true,
      });
      expect((await server.call('GET', `/api/conversations/${id}`)).json).toMatchObject({
        execution_status: 'running',
      });
      const paused = await server.call('POST', `/api/conversations/${id}/pause`);
      expect(paused).toEqual({ status: 200, json: { success: true } });
      const info = await waitForIdle(server, id);
      expect(info.execution_status).toBe('paused');
      expect(
        (await server.call('GET', `/api/conversations/${id}/events/count?kind=PauseEvent`)).json,
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await endless.close();
    }
  });

  it('interrupts a model call in flight: the request is closed, an InterruptEvent recorded, status paused', async () => {
    const slow = await startScriptedLLMServer([{ hang: true }, finishReply('resumed')]);
    try {
      const { json } = await server.call('POST', '/api/conversations', createRequest(slow));
      const id = (json as Info).id as string;
      await server.call('POST', `/api/conversations/${id}/events`, {
        content: [{ type: 'text', text: 'go' }],
        run: true,
      });
      await slow.waitForRequests(1);
      const interrupted = await server.call('POST', `/api/conversations/${id}/interrupt`);
      expect(interrupted).toEqual({ status: 200, json: { success: true } });
      // Recorded by the time the route answers.
      expect((await server.call('GET', `/api/conversations/${id}/events/count?kind=InterruptEvent`)).json).toBe(1);
      await slow.waitForClientClose(0);
      const info = await waitForIdle(server, id);
      expect(info.execution_status).toBe('paused');
      expect((await server.call('GET', `/api/conversations/${id}/events/count?kind=ConversationErrorEvent`)).json).toBe(
        0,
      );
      // Resumable.
      await server.call('POST', `/api/conversations/${id}/run`);
      expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    } finally {
      await slow.close();
    }
  });

  it('waits for confirmation, rejects with a reason, and accepting runs', async () => {
    const id = await createConversation(server, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    const policy = await server.call('POST', `/api/conversations/${id}/confirmation_policy`, {
      policy: { kind: 'AlwaysConfirm' },
    });
    expect(policy.status).toBe(200);
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo risky' } }] });
    await server.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'do it' }],
      run: true,
    });
    expect((await waitForIdle(server, id)).execution_status).toBe('waiting_for_confirmation');

    const managed = await server.built.manager.require(id);
    const published: AnyEvent[] = [];
    const stop = managed.onPublished((event) => published.push(event));
    const rejected = await server.call('POST', `/api/conversations/${id}/events/respond_to_confirmation`, {
      accept: false,
      reason: 'not today',
    });
    stop();
    expect(rejected).toEqual({ status: 200, json: { success: true } });
    // Its watchers are told at once that nothing waits for a decision any more.
    const fullStates = published.filter(
      (event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'full_state',
    );
    expect(fullStates.length).toBeGreaterThan(0);
    const info = await waitForIdle(server, id);
    expect(info.execution_status).toBe('idle');
    const rejections = await server.call('GET', `/api/conversations/${id}/events/search?kind=UserRejectObservation`);
    expect((rejections.json as { items: Info[] }).items[0]).toMatchObject({ rejection_reason: 'not today' });

    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo again' } }] });
    await server.call('POST', `/api/conversations/${id}/events`, {
      content: [{ type: 'text', text: 'again' }],
      run: true,
    });
    expect((await waitForIdle(server, id)).execution_status).toBe('waiting_for_confirmation');
    server.llm.push(finishReply('confirmed and done'));
    const accepted = await server.call('POST', `/api/conversations/${id}/events/respond_to_confirmation`, {
      accept: true,
    });
    expect(accepted.status).toBe(200);
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    const observations = await server.call('GET', `/api/conversations/${id}/events/search?kind=ObservationEvent`);
    expect(JSON.stringify(observations.json)).toContain('again');
  });
});
