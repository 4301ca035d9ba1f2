import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent, ObservationEvent } from '@x/events';
import { createLocalFileStore } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Conversation,
  createDelegateTool,
  createOfflineLLM,
  defineTool,
  type LLMRequest,
  listSubConversationIds,
  type OfflineTurn,
} from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-delegation-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const finish = (message: string): OfflineTurn => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

/** The text of the last user message of a request. */
function lastUserText(request: LLMRequest): string {
  const user = [...request.messages].reverse().find((message) => message.role === 'user');
  return JSON.stringify(user?.content ?? '');
}

/** Resolves once `count` callers wait on it; a caller alone gives up after a while and says so. */
function meetingPoint(count: number) {
  let arrived = 0;
  let release: () => void = () => undefined;
  const all = new Promise<void>((resolve) => {
    release = resolve;
  });
  return async (): Promise<string> => {
    arrived += 1;
    if (arrived === count) release();
    // Long enough that a loaded machine starting the second sub-agent late still meets the first; only
    // sub-agents that truly run one after the other wait it out.
    const alone = new Promise<string>((resolve) => setTimeout(() => resolve('alone'), 60_000).unref());
    return Promise.race([all.then(() => 'together'), alone]);
  };
}

function parentScript(tasks: Record<string, string>, ids = Object.keys(tasks)): OfflineTurn[] {
  return [
    { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids } }] },
    { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks } }] },
    finish('all delegated'),
  ];
}

async function runParent(tool: ReturnType<typeof createDelegateTool>, script: OfflineTurn[]) {
  const events: AnyEvent[] = [];
  const conversation = await Conversation.create({
    agent: new Agent({ llm: createOfflineLLM({ script }), tools: [tool] }),
    workspace: await workspaceIn(dir),
    persistenceDir: join(dir, 'data'),
    durability: 'none',
    onEvent: (event) => events.push(event),
  });
  await conversation.sendMessage('Split the work');
  const result = await conversation.run();
  const observations = events.filter(
    (event): event is ObservationEvent => event.kind === 'ObservationEvent' && event.tool_name === 'delegate',
  );
  return { conversation, events, result, observations };
}

describe('the delegate tool', () => {
  it('runs children in parallel, returns their answers, and persists them beside the parent', async () => {
    const meet = meetingPoint(2);
    const rendezvous = defineTool({
      name: 'rendezvous',
      description: 'Waits for the sibling sub-agent.',
      parameters: z.object({}),
      execute: async () => ({ content: await meet() }),
    });
    const tool = createDelegateTool({
      agentTypes: {
        default: {
          createAgent: () =>
            new Agent({
              tools: [rendezvous],
              llm: createOfflineLLM({
                script: (request, turn) =>
                  turn === 0
                    ? { toolCalls: [{ name: 'rendezvous', arguments: {} }] }
                    : finish(
                        `${lastUserText(request).includes('apples') ? 'apples' : 'pears'} ${JSON.stringify(request.messages.at(-1)?.content).includes('together') ? 'together' : 'alone'}`,
                      ),
              }),
            }),
        },
      },
    });
    const { conversation, result, observations } = await runParent(
      tool,
      parentScript({ a: 'count the apples', b: 'count the pears' }),
    );
    expect(result.status).toBe('finished');
    expect(observations[0]?.observation).toMatchObject({
      kind: 'DelegateObservation',
      command: 'spawn',
      is_error: false,
      content: [{ text: 'Successfully spawned 2 sub-agents: a (default), b (default)' }],
    });
    expect(observations[1]?.observation).toMatchObject({
      kind: 'DelegateObservation',
      command: 'delegate',
      is_error: false,
      content: [
        {
          text: 'Completed delegation of 2 tasks\n\nResults:\n1. Agent a: apples together\n2. Agent b: pears together',
        },
      ],
    });

    const usage = conversation.state.stats.usage_to_metrics;
    expect(Object.keys(usage).sort()).toEqual(['default', 'delegate:a', 'delegate:b']);
    expect(usage['delegate:a']?.accumulated_token_usage.prompt_tokens).toBeGreaterThan(0);

    const store = createLocalFileStore({ root: join(dir, 'data') });
    const childIds = await listSubConversationIds(store, conversation.directory);
    expect(childIds).toHaveLength(2);
    const childDir = join(dir, 'data', conversation.directory, 'subagents');
    const child = await Conversation.resume(childIds[0]!, {
      agent: new Agent({ llm: createOfflineLLM({ script: [] }) }),
      persistenceDir: childDir,
    });
    expect(child.state.execution_status).toBe('finished');
    const base = JSON.parse(await readFile(join(childDir, child.directory, 'base_state.json'), 'utf8')) as {
      id: string;
    };
    expect(childIds).toContain(base.id);
  });

  it('reports a failing child as an error observation and the parent goes on', async () => {
    const tool = createDelegateTool({
      agentTypes: {
        default: {
          createAgent: () =>
            new Agent({
              llm: createOfflineLLM({
                script: (request) => {
                  if (lastUserText(request).includes('explode')) throw new Error('model unavailable');
                  return finish('fine');
                },
              }),
            }),
        },
      },
    });
    const { result, observations, conversation } = await runParent(
      tool,
      parentScript({ ok: 'behave', bad: 'explode' }),
    );
    expect(result.status).toBe('finished');
    const delegated = observations[1]?.observation;
    expect(delegated?.is_error).toBe(true);
    const text = (delegated?.content[0] as { text: string } | undefined)?.text;
    expect(text).toContain('Completed delegation of 2 tasks with 1 errors');
    expect(text).toContain('1. Agent ok: fine');
    expect(text).toMatch(/2\. Agent bad ERROR: Sub-agent bad failed: .*model unavailable/);
    const store = createLocalFileStore({ root: join(dir, 'data') });
    expect(await listSubConversationIds(store, conversation.directory)).toHaveLength(2);
  });

  it('refuses bad requests with error observations', async () => {
    const tool = createDelegateTool({ maxChildren: 1 });
    const { observations } = await runParent(tool, [
      { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['a', 'b'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['a'], agent_types: ['wizard'] } }] },
      { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { ghost: 'boo' } } }] },
      finish('gave up'),
    ]);
    expect(
      observations.map((event) => [
        event.observation.is_error,
        (event.observation.content[0] as { text: string }).text,
      ]),
    ).toEqual([
      [true, 'Cannot spawn 2 agents. Already have 0 agents, maximum is 1'],
      [true, 'Unknown agent type(s): wizard. Available: default'],
      [true, 'sub-agents not found: ghost. Available agents: '],
    ]);
  });
});
