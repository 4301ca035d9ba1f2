// A remote A2A agent as a sub-agent of the delegate tool: the remote is `@a2a-js/sdk`'s own server on 127.0.0.1
// (test/support/a2a-remote-agent.ts); an x conversation spawns it by type, delegates to it twice (the second task
// continues the remote context), and the remote's streamed answer is the observation recorded in the log.
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
  dir = await mkdtemp(join(tmpdir(), 'x-delegation-a2a-'));
  remote = await startRemoteA2aAgent();
});
afterEach(async () => {
  await remote.close();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const finish = (message: string): OfflineTurn => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });
const spawn = (id: string, type: string): OfflineTurn => ({
  toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: [id], agent_types: [type] } }],
});
const delegate = (tasks: Record<string, string>): OfflineTurn => ({
  toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks } }],
});

async function runParent(
  tool: ReturnType<typeof createDelegateTool>,
  script: OfflineTurn[],
  runOptions: Parameters<Conversation['run']>[0] = {},
) {
  const persistenceDir = join(dir, 'data');
  const conversation = await Conversation.create({
    agent: new Agent({ llm: createOfflineLLM({ script }), tools: [tool] }),
    workspace: await workspaceIn(dir),
    persistenceDir,
    durability: 'none',
  });
  await conversation.sendMessage('Ask the remote agent');
  const result = await conversation.run(runOptions);
  const stats = conversation.state.stats;
  const events: AnyEvent[] = [];
  for await (const event of conversation.events()) events.push(event);
  const observations = events.filter(
    (event): event is ObservationEvent => event.kind === 'ObservationEvent' && event.tool_name === 'delegate',
  );
  await conversation.close();
  return { result, observations, stats };
}

const text = (observation: ObservationEvent | undefined) =>
  (observation?.observation as { content?: Array<{ text: string }> } | undefined)?.content?.[0]?.text ?? '';

describe('a remote A2A agent as a sub-agent', () => {
  it("streams the task to the remote and records its answer; a second task continues the remote's context", async () => {
    const tool = createDelegateTool({
      agentTypes: {
        shouter: createA2aSubAgentType({ url: remote.url, headers: { authorization: 'Bearer remote-key' } }),
      },
    });
    const { result, observations } = await runParent(tool, [
      spawn('far', 'shouter'),
      delegate({ far: 'count the stars' }),
      delegate({ far: 'and the moons' }),
      finish('asked'),
    ]);
    expect(result.status).toBe('finished');
    expect(text(observations[0])).toBe('Successfully spawned 1 sub-agents: far (shouter)');
    // The artifact came in two appended chunks: the answer is both.
    expect(text(observations[1])).toBe(
      'Completed delegation of 1 tasks\n\nResults:\n1. Agent far: Remote says: COUNT THE STARS',
    );
    expect(observations[1]?.observation).toMatchObject({ is_error: false, command: 'delegate' });
    expect(text(observations[2])).toContain('1. Agent far: Remote says: AND THE MOONS');
    expect(remote.received.map((task) => task.text)).toEqual(['count the stars', 'and the moons']);
    expect(remote.received[1]?.contextId).toBe(remote.received[0]?.contextId);
    expect(remote.received[1]?.taskId).not.toBe(remote.received[0]?.taskId);
    expect(remote.received[0]?.authorization).toBe('Bearer remote-key');
  });

  it('reports a task the remote fails as an error observation, and the parent goes on', async () => {
    const tool = createDelegateTool({ agentTypes: { shouter: createA2aSubAgentType({ url: remote.url }) } });
    const { result, observations } = await runParent(tool, [
      spawn('far', 'shouter'),
      delegate({ far: 'do the impossible' }),
      finish('tried'),
    ]);
    expect(result.status).toBe('finished');
    expect(observations[1]?.observation).toMatchObject({ is_error: true });
    expect(text(observations[1])).toContain(
      `1. Agent far ERROR: Sub-agent far failed: The A2A agent at ${remote.url} failed the task: cannot do the impossible`,
    );
  });

  it('refuses to spawn a remote that cannot be reached, naming it', async () => {
    const gone = await startRemoteA2aAgent();
    await gone.close();
    const tool = createDelegateTool({ agentTypes: { shouter: createA2aSubAgentType({ url: gone.url }) } });
    const { observations } = await runParent(tool, [spawn('far', 'shouter'), finish('gave up')]);
    expect(observations[0]?.observation).toMatchObject({ is_error: true });
    expect(text(observations[0])).toContain(
      `Could not spawn far (shouter): The A2A agent at ${gone.url} could not be reached`,
    );
  });
});

describe('a remote A2A agent under a budget', () => {
  const delegateTwice = (id: string, first: string, second: string): OfflineTurn => ({
    toolCalls: [
      { name: 'delegate', arguments: { command: 'delegate', tasks: { [id]: first } } },
      { name: 'delegate', arguments: { command: 'delegate', tasks: { [id]: second } } },
    ],
  });

  it("counts what the remote's task reports it spent against the parent's run budget, which then stops the run", async () => {
    await remote.close();
    remote = await startRemoteA2aAgent({ usage: { costUsd: 0.5, promptTokens: 1200, completionTokens: 300 } });
    const tool = createDelegateTool({ agentTypes: { shouter: createA2aSubAgentType({ url: remote.url }) } });
    const { result, stats } = await runParent(
      tool,
      [spawn('far', 'shouter'), delegate({ far: 'count the stars' }), delegate({ far: 'and the moons' }), finish('x')],
      // The offline model spends tokens at no price: allowed, so only the remote's dollars count.
      { budget: { maxUsd: 0.4, allowUnknownCost: true } },
    );
    expect(stats.usage_to_metrics['delegate:far']).toMatchObject({
      accumulated_cost: 0.5,
      accumulated_token_usage: { prompt_tokens: 1200, completion_tokens: 300 },
    });
    // The model call after the delegation is refused: the remote's spend passed the budget.
    expect(result.status).toBe('error');
    expect(remote.received.map((task) => task.text)).toEqual(['count the stars']);
  });

  it('does not ask a remote agent once the budget is spent, even in the same response', async () => {
    await remote.close();
    remote = await startRemoteA2aAgent({ usage: { costUsd: 0.5 } });
    const tool = createDelegateTool({ agentTypes: { shouter: createA2aSubAgentType({ url: remote.url }) } });
    const { observations } = await runParent(
      tool,
      [spawn('far', 'shouter'), delegateTwice('far', 'count the stars', 'and the moons'), finish('x')],
      // The offline model spends tokens at no price: allowed, so only the remote's dollars count.
      { budget: { maxUsd: 0.4, allowUnknownCost: true } },
    );
    expect(remote.received.map((task) => task.text)).toEqual(['count the stars']);
    expect(text(observations[2])).toContain('1. Agent far ERROR: Sub-agent far was not asked: the budget is spent');
  });
});
