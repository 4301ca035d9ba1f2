import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '@x/agent/testing';
import type { AnyEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RemoteConversation } from '../../src/client/index.js';
import { type BuiltServer, buildServer } from '../../src/index.js';
import { type DroppingProxy, startDroppingProxy } from '../support/dropping-proxy.js';

const finish = (message: string): ScriptedReply => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

describe('RemoteConversation.state across a dropped socket', () => {
  let dataDir: string;
  let llm: ScriptedLLMServer;
  let server: BuiltServer;
  let proxy: DroppingProxy;
  let direct: string;

  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'x-client-state-test-'));
    llm = await startScriptedLLMServer([finish('one')]);
    // Requests reach it through the proxy, so with the proxy's port in their Host.
    server = await buildServer({ port: 0, dataDir, logLevel: 'silent', apiKeys: [], allowedHosts: ['127.0.0.1'] });
    direct = (await server.listen()).url;
    proxy = await startDroppingProxy(direct);
  });
  afterEach(async () => {
    await proxy.close();
    await server.close();
    await llm.close();
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
  });

  it('is not rolled back by the field updates replayed after the newer snapshot a reconnection starts with', async () => {
    const agent = { llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test' }, tools: [] };
    const conversation = await RemoteConversation.create(proxy.url, {
      agent,
      workspace: join(dataDir, 'workspaces'),
      pollIntervalMs: 100,
      reconnect: { initialDelayMs: 20, maxDelayMs: 100 },
    });
    // What the client's state said after each frame it received once the socket came back.
    const seen: { frame: string; index: number | undefined; status: unknown }[] = [];
    let recording = false;
    conversation.subscribe((event: AnyEvent, index) => {
      if (!recording) return;
      const key = event.kind === 'ConversationStateUpdateEvent' ? `:${event.key}` : '';
      seen.push({ frame: `${event.kind}${key}`, index, status: conversation.state.execution_status });
    });

    proxy.down();
    // The run happens while the socket is down: its `running` field update is in the log the reconnect replays.
    const other = await RemoteConversation.attach(direct, conversation.id, { pollIntervalMs: 100 });
    await other.sendMessage('hello');
    expect((await other.run()).status).toBe('finished');
    const logLength = (await collect(other.events())).length;
    await other.close();

    recording = true;
    proxy.up();
    await expect.poll(() => conversation.nextIndex, { timeout: 120_000 }).toBe(logLength);
    const snapshot = seen.findIndex((entry) => entry.frame === 'ConversationStateUpdateEvent:full_state');
    expect(snapshot, JSON.stringify(seen)).toBeGreaterThanOrEqual(0);
    expect(seen[snapshot]?.status).toBe('finished');
    const replayed = seen.slice(snapshot + 1);
    expect(replayed.some((entry) => entry.frame === 'ConversationStateUpdateEvent:execution_status')).toBe(true);
    expect(replayed.map((entry) => entry.status)).toEqual(replayed.map(() => 'finished'));
    expect(conversation.state.execution_status).toBe('finished');
    await conversation.close();
  });
});

async function collect(events: AsyncIterable<AnyEvent>): Promise<AnyEvent[]> {
  const all: AnyEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}
