import type { AnyEvent } from '@x/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RemoteConversation,
  RemoteConversationNotFoundError,
  RemoteRouteNotFoundError,
} from '../../src/client/index.js';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer, waitFor } from '../helpers.js';
import { type ReferenceShapedServer, startReferenceShapedServer } from '../support/reference-shaped-server.js';

const ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

describe('our TypeScript client against a server in the reference shape', () => {
  let server: ReferenceShapedServer;
  beforeAll(async () => {
    server = await startReferenceShapedServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('resumes a dropped stream with resend_mode=since: nothing lost, nothing repeated', async () => {
    server.conversations.set(ID, []);
    server.emit(ID, 'before attach');
    const received: AnyEvent[] = [];
    const conversation = await RemoteConversation.attach(server.url, ID, {
      onEvent: (event) => received.push(event),
      reconnect: { initialDelayMs: 20, maxDelayMs: 50 },
    });
    const live = server.emit(ID, 'live one');
    await waitFor(async () => received.some((event) => event.id === live.id));
    server.dropSockets();
    const missed = server.emit(ID, 'while disconnected');
    await waitFor(async () => received.some((event) => event.id === missed.id));
    const after = server.emit(ID, 'after reconnect');
    await waitFor(async () => received.some((event) => event.id === after.id));

    const messages = received.filter((event) => event.kind === 'MessageEvent').map((event) => event.id);
    expect(messages).toEqual([live.id, missed.id, after.id]);
    const reconnectUrl = server.socketUrls.at(-1) ?? '';
    expect(reconnectUrl).toContain('resend_mode=since');
    expect(reconnectUrl).toContain(`after_timestamp=${encodeURIComponent(String(live.timestamp))}`);
    await conversation.close();
  });

  it('tells a missing route from a missing conversation on a 404', async () => {
    server.conversations.set(ID, []);
    const conversation = await RemoteConversation.attach(server.url, ID, { reconnect: false });
    await expect(conversation.navigateTo(null)).rejects.toSatisfy((error) =>
      RemoteRouteNotFoundError.isInstance(error),
    );
    await expect(conversation.updateSecrets({ A: 'b' })).resolves.toBeUndefined();
    server.conversations.delete(ID);
    await expect(conversation.updateSecrets({ A: 'b' })).rejects.toSatisfy((error) =>
      RemoteConversationNotFoundError.isInstance(error),
    );
    await conversation.close();
  });

  it('forks with the reference body and attaches to the fork', async () => {
    server.conversations.set(ID, []);
    const source = server.emit(ID, 'source event');
    const conversation = await RemoteConversation.attach(server.url, ID, { reconnect: false });
    const fork = await conversation.fork({ fromEventId: String(source.id), title: 'T' });
    expect(server.requests.find((request) => request.path.endsWith('/fork'))?.body).toEqual({
      reset_metrics: true,
      title: 'T',
      from_event_id: source.id,
    });
    expect(fork.id).toBe('11111111-2222-4333-8444-555555555555');
    expect(fork.state.forked_from_conversation_id).toBe(ID);
    await fork.close();
    await conversation.close();
  });
});

describe('our TypeScript client against our server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.stop();
    await removeDir(server.dataDir);
  });

  it('creates with secrets, forks, navigates, sets secrets and the analyzer', async () => {
    const { agent } = createRequest(server.llm) as { agent: Record<string, unknown> };
    const conversation = await RemoteConversation.create(server.url, {
      agent,
      secrets: { API_TOKEN: 'tok-1', OTHER: { value: 'tok-2', description: 'second' } },
      reconnect: false,
    });
    const sources = (conversation.state.secret_registry as { secret_sources: Record<string, unknown> }).secret_sources;
    expect(Object.keys(sources).sort()).toEqual(['API_TOKEN', 'OTHER']);

    await conversation.sendMessage('hello');
    server.llm.push(finishReply('done'));
    expect((await conversation.run()).status).toBe('finished');
    const events: AnyEvent[] = [];
    for await (const event of conversation.events()) events.push(event);
    const firstMessage = events.find((event) => event.kind === 'MessageEvent') as AnyEvent;

    const fork = await conversation.fork({ fromEventId: firstMessage.id, title: 'Alt' });
    expect(fork.leafEventId).toBe(firstMessage.id);
    expect(fork.state.title).toBe('Alt');

    const state = await conversation.navigateTo(firstMessage.id);
    expect(state.leaf_event_id).toBe(firstMessage.id);
    expect(conversation.leafEventId).toBe(firstMessage.id);
    await expect(conversation.navigateTo('no-such-event')).rejects.toThrow(/no-such-event/);

    await conversation.updateSecrets({ THIRD: 'tok-3' });
    await conversation.setSecurityAnalyzer('llm');
    const refreshed = await conversation.refresh();
    expect(refreshed.security_analyzer).toEqual({ kind: 'LLMSecurityAnalyzer' });
    expect(Object.keys((refreshed.secret_registry as { secret_sources: object }).secret_sources)).toContain('THIRD');
    await fork.close();
    await conversation.close();
  });

  it('run() right after pause() resumes the conversation', async () => {
    const { agent } = createRequest(server.llm) as { agent: Record<string, unknown> };
    const conversation = await RemoteConversation.create(server.url, { agent, reconnect: false });
    await conversation.sendMessage('start');
    // The first step's model answer is held until the pause is in, so the pause lands mid-step on any machine.
    let answer: () => void = () => undefined;
    const pausedNow = new Promise<void>((resolve) => {
      answer = resolve;
    });
    server.llm.push(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo one' } }], gate: pausedNow },
      finishReply('finished after resume'),
    );
    const first = conversation.run();
    await waitFor(async () => conversation.state.execution_status === 'running');
    await conversation.pause();
    answer();
    expect((await first).status).toBe('paused');
    expect((await conversation.run()).status).toBe('finished');
    await conversation.close();
  });

  it('interrupt() stops a model call in flight: run() resolves paused, and a later run() continues', async () => {
    const { agent } = createRequest(server.llm) as { agent: Record<string, unknown> };
    const conversation = await RemoteConversation.create(server.url, { agent, reconnect: false });
    await conversation.sendMessage('start');
    const before = server.llm.requests.length;
    server.llm.push({ hang: true }, finishReply('finished after interrupt'));
    const first = conversation.run();
    await server.llm.waitForRequests(before + 1);
    await conversation.interrupt();
    await server.llm.waitForClientClose(before);
    expect((await first).status).toBe('paused');
    expect((await conversation.run()).status).toBe('finished');
    await conversation.close();
  });
});
