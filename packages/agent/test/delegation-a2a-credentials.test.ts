// A remote A2A agent's headers (its API key) and URL credentials are the delegating side's secrets: a remote that
// quotes the key it refused in a failed task, or echoes it in its answer, must not carry it into the delegate
// tool's observation, which the conversation's events keep (they hide only the conversation's own secrets).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent, ObservationEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  Conversation,
  createA2aSubAgentType,
  createDelegateTool,
  createOfflineLLM,
  type OfflineTurn,
} from '../src/index.js';
import { type RemoteA2aAgent, startRemoteA2aAgent } from './support/a2a-remote-agent.js';
import { workspaceIn } from './support/workspace-beside-store.js';

let dir: string;
let remote: RemoteA2aAgent;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-delegation-a2a-keys-'));
  remote = await startRemoteA2aAgent();
});
afterEach(async () => {
  await remote.close();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const key = 'remote-api-key-0123456789abcdef';
const turn = (name: string, args: Record<string, unknown>): OfflineTurn => ({ toolCalls: [{ name, arguments: args }] });

async function delegateTo(task: string): Promise<{ observation: string; events: string }> {
  const tool = createDelegateTool({
    agentTypes: { keyed: createA2aSubAgentType({ url: remote.url, headers: { authorization: `Bearer ${key}` } }) },
  });
  const script = [
    turn('delegate', { command: 'spawn', ids: ['far'], agent_types: ['keyed'] }),
    turn('delegate', { command: 'delegate', tasks: { far: task } }),
    turn('finish', { message: 'asked' }),
  ];
  const conversation = await Conversation.create({
    agent: new Agent({ llm: createOfflineLLM({ script }), tools: [tool] }),
    workspace: await workspaceIn(dir),
    persistenceDir: join(dir, 'data'),
    durability: 'none',
  });
  await conversation.sendMessage('Ask the remote agent');
  await conversation.run();
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  await conversation.close();
  const observations = events.filter(
    (event): event is ObservationEvent => event.kind === 'ObservationEvent' && event.tool_name === 'delegate',
  );
  return { observation: JSON.stringify(observations.at(-1)?.observation), events: JSON.stringify(events) };
}

describe("a remote A2A agent's credentials", () => {
  it('are hidden in the answer of a remote that echoes them', async () => {
    const { observation, events } = await delegateTo('whoami');
    // The remote did get the key, and said so.
    expect(remote.received.at(-1)?.authorization).toBe(`Bearer ${key}`);
    expect(observation).toContain('Remote says: you sent <secret-hidden>');
    expect(events).not.toContain(key);
  });

  it('are hidden in the error of a task the remote fails quoting them', async () => {
    const { observation, events } = await delegateTo('refuse me');
    expect(observation).toContain('failed the task: bad credentials: <secret-hidden>');
    expect(events).not.toContain(key);
  });
});
