import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '@x/agent/testing';
import type { AnyEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  RemoteAuthError,
  RemoteConversation,
  RemoteConversationNotFoundError,
  streamConversationEvents,
} from '../../src/client/index.js';
import { type BuiltServer, buildServer } from '../../src/index.js';

const finish = (message: string): ScriptedReply => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

describe('RemoteConversation and event streams against a real server', () => {
  let dataDir: string;
  let llm: ScriptedLLMServer;
  const servers: BuiltServer[] = [];
  const start = async (config: { port?: number; apiKeys?: string[] } = {}) => {
    const server = await buildServer({
      port: config.port ?? 0,
      dataDir,
      logLevel: 'silent',
      apiKeys: config.apiKeys ?? [],
    });
    servers.push(server);
    const { url } = await server.listen();
    return { server, url };
  };
  const agent = () => ({ llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test' }, tools: [] });

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'x-client-test-'));
    llm = await startScriptedLLMServer([finish('one'), finish('two'), finish('three')]);
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    await llm.close();
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });

  it('resumes by index across a server restart on the same data dir: exactly the missed events', async () => {
    const first = await start();
    const conversation = await RemoteConversation.create(first.url, {
      agent: agent(),
      workspace: join(dataDir, 'workspaces'),
      pollIntervalMs: 100,
    });
    await conversation.sendMessage('first');
    expect((await conversation.run()).status).toBe('finished');
    await conversation.close();

    const seen: { index: number; id: string }[] = [];
    const stream = streamConversationEvents(first.url, conversation.id, {
      fromIndex: 0,
      reconnect: false,
      onEvent: (event, index) => {
        if (index !== undefined) seen.push({ index, id: event.id });
      },
    });
    await stream.ready;
    const before = (await collect(conversation.events())).length;
    await expect.poll(() => seen.length).toBe(before);
    await first.server.close();
    await expect(stream.done).rejects.toThrow('closed');
    const resumeFrom = stream.nextIndex;
    expect(resumeFrom).toBe(before);

    // Events the stream misses while it is down.
    const second = await start();
    const again = await RemoteConversation.attach(second.url, conversation.id, { pollIntervalMs: 100 });
    await again.sendMessage('second');
    expect((await again.run()).status).toBe('finished');

    const missed: { index: number; id: string }[] = [];
    const resumed = streamConversationEvents(second.url, conversation.id, {
      fromIndex: resumeFrom,
      onEvent: (event, index) => {
        if (index !== undefined) missed.push({ index, id: event.id });
      },
    });
    const all = await collect(again.events());
    await expect.poll(() => missed.length).toBe(all.length - before);
    resumed.close();
    await resumed.done;
    const union = [...seen, ...missed];
    expect(union.map((entry) => entry.index)).toEqual(all.map((_, index) => index));
    expect(union.map((entry) => entry.id)).toEqual(all.map((event) => event.id));
    await again.close();
  });

  it('reconnects by itself after a restart on the same port, without losing or repeating events', async () => {
    const first = await start();
    const port = Number(new URL(first.url).port);
    const conversation = await RemoteConversation.create(first.url, {
      agent: agent(),
      workspace: join(dataDir, 'workspaces'),
      pollIntervalMs: 100,
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    });
    const received: AnyEvent[] = [];
    conversation.subscribe((event, index) => {
      if (index !== undefined) received.push(event);
    });
    await conversation.sendMessage('first');
    await conversation.run();
    await first.server.close();

    const second = await start({ port });
    const again = await RemoteConversation.attach(second.url, conversation.id, { pollIntervalMs: 100 });
    await again.sendMessage('second');
    await again.run();
    const all = await collect(again.events());
    // The stream started after the system prompt, which was already in the log when it connected.
    await expect.poll(() => received.length, { timeout: 60_000 }).toBe(all.length - 1);
    expect(received.map((event) => event.id)).toEqual(all.slice(1).map((event) => event.id));
    await again.close();
    await conversation.close();
  });

  it('fails with typed errors for a wrong key and an unknown conversation', async () => {
    const { url } = await start({ apiKeys: ['right'] });
    await expect(RemoteConversation.create(url, { apiKey: 'wrong', agent: agent() })).rejects.toBeInstanceOf(
      RemoteAuthError,
    );
    const stream = streamConversationEvents(url, 'a1b2c3d4-0000-4000-8000-000000000000', {
      apiKey: 'wrong',
      fromIndex: 0,
      onEvent: () => undefined,
    });
    await expect(stream.done).rejects.toBeInstanceOf(RemoteAuthError);
    await expect(
      RemoteConversation.attach(url, 'a1b2c3d4-0000-4000-8000-000000000000', { apiKey: 'right' }),
    ).rejects.toBeInstanceOf(RemoteConversationNotFoundError);
    const missing = streamConversationEvents(url, 'a1b2c3d4-0000-4000-8000-000000000000', {
      apiKey: 'right',
      fromIndex: 0,
      onEvent: () => undefined,
    });
    await expect(missing.done).rejects.toBeInstanceOf(RemoteConversationNotFoundError);
  });

  it('keeps state from snapshots and field updates, answers side questions and makes titles', async () => {
    await llm.close();
    llm = await startScriptedLLMServer([finish('done'), { content: 'The answer is 42.' }, { content: 'A Title' }]);
    const { url } = await start();
    const conversation = await RemoteConversation.create(url, {
      agent: agent(),
      workspace: join(dataDir, 'workspaces'),
      pollIntervalMs: 100,
    });
    expect(conversation.state.id).toBe(conversation.id);
    await conversation.sendMessage('hello');
    await conversation.run();
    expect(conversation.state.execution_status).toBe('finished');
    await conversation.setConfirmationPolicy({ kind: 'AlwaysConfirm' });
    await expect
      .poll(() => (conversation.state.confirmation_policy as { kind?: string } | undefined)?.kind)
      .toBe('AlwaysConfirm');
    expect(await conversation.askAgent('what is the answer?')).toBe('The answer is 42.');
    expect(await conversation.generateTitle()).toBe('A Title');
    await conversation.close();
  });
});

async function collect(events: AsyncIterable<AnyEvent>): Promise<AnyEvent[]> {
  const all: AnyEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}
