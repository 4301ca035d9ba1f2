import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActionEvent, AnyEvent, ObservationEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  type ConfirmationPolicyInput,
  Conversation,
  ConversationClosedError,
  createDelegateTool,
  createOfflineLLM,
  type DelegateToolOptions,
  defineTool,
  type OfflineTurn,
} from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

// The delegate tool's limits: the cap on children holds across spawns, a child that stops stuck is an error,
// and a child runs under the parent's confirmation policy, where a refusal keeps its action from running.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-delegation-limits-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

const finish = (message: string): OfflineTurn => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });
const spawn = (...ids: string[]): OfflineTurn => ({
  toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids } }],
});

async function runParent(
  toolOptions: DelegateToolOptions,
  script: OfflineTurn[],
  confirmationPolicy?: ConfirmationPolicyInput,
) {
  const events: AnyEvent[] = [];
  const conversation = await Conversation.create({
    agent: new Agent({ llm: createOfflineLLM({ script }), tools: [createDelegateTool(toolOptions)] }),
    workspace: await workspaceIn(dir),
    persistenceDir: join(dir, 'data'),
    durability: 'none',
    onEvent: (event) => events.push(event),
    ...(confirmationPolicy === undefined ? {} : { confirmationPolicy }),
  });
  await conversation.sendMessage('Split the work');
  let result = await conversation.run();
  // The parent's own delegate actions are approved here; the children's go through `confirm`.
  while (result.status === 'waiting_for_confirmation') result = await conversation.run();
  await conversation.close();
  const texts = events
    .filter((event): event is ObservationEvent => event.kind === 'ObservationEvent' && event.tool_name === 'delegate')
    .map((event) => [event.observation.is_error, (event.observation.content[0] as { text: string }).text]);
  return { result, texts };
}

describe('the cap on sub-agents', () => {
  it('counts the children of earlier spawns', async () => {
    const { texts } = await runParent({ maxChildren: 2 }, [spawn('a'), spawn('b'), spawn('c'), finish('done')]);
    expect(texts).toEqual([
      [false, 'Successfully spawned 1 sub-agents: a (default)'],
      [false, 'Successfully spawned 1 sub-agents: b (default)'],
      [true, 'Cannot spawn 1 agents. Already have 2 agents, maximum is 2'],
    ]);
  });

  it('allows exactly the cap in one spawn, and respawning a known id takes no new place', async () => {
    const { texts } = await runParent({ maxChildren: 2 }, [
      spawn('a', 'b'),
      spawn('a'),
      spawn('a', 'c'),
      finish('done'),
    ]);
    expect(texts).toEqual([
      [false, 'Successfully spawned 2 sub-agents: a (default), b (default)'],
      [false, 'Successfully spawned 1 sub-agents: a (default)'],
      [true, 'Cannot spawn 2 agents. Already have 2 agents, maximum is 2'],
    ]);
  });
});

describe('respawning an id', () => {
  it('closes the child it replaces', async () => {
    const children: Conversation[] = [];
    await runParent({ onSubConversation: ({ conversation }) => children.push(conversation) }, [
      spawn('a'),
      spawn('a'),
      finish('done'),
    ]);
    expect(children).toHaveLength(2);
    const replaced = await children[0]!.sendMessage('still there?').catch((caught: unknown) => caught);
    expect(ConversationClosedError.isInstance(replaced)).toBe(true);
  });
});

describe('a child that does not finish', () => {
  it('is reported as an error when it stops stuck', async () => {
    const noop = defineTool({
      name: 'noop',
      description: 'Always says the same.',
      parameters: z.object({}),
      execute: () => ({ content: 'same' }),
    });
    const { result, texts } = await runParent(
      {
        agentTypes: {
          default: {
            // The same action and observation again and again: the stuck detector stops the child.
            createAgent: () =>
              new Agent({
                tools: [noop],
                llm: createOfflineLLM({ script: () => ({ toolCalls: [{ name: 'noop', arguments: {} }] }) }),
              }),
            maxIterationsPerRun: 50,
          },
        },
      },
      [
        spawn('loop'),
        { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { loop: 'go' } } }] },
        finish('done'),
      ],
    );
    expect(result.status).toBe('finished');
    expect(texts[1]?.[0]).toBe(true);
    expect(texts[1]?.[1]).toContain('Completed delegation of 1 tasks with 1 errors');
    expect(texts[1]?.[1]).toContain("1. Agent loop ERROR: Sub-agent loop failed: it stopped with status 'stuck'");
  });
});

describe('a child under the parent’s confirmation policy', () => {
  const childWithCommand = (ran: string[]) => ({
    default: {
      createAgent: () =>
        new Agent({
          tools: [
            defineTool({
              name: 'touch',
              description: 'Records that it ran.',
              parameters: z.object({ file: z.string() }),
              execute: ({ file }) => {
                ran.push(file);
                return { content: `touched ${file}` };
              },
            }),
          ],
          llm: createOfflineLLM({
            script: (request, turn) =>
              turn === 0
                ? { toolCalls: [{ name: 'touch', arguments: { file: 'made.txt' } }] }
                : finish(
                    JSON.stringify(request.messages.at(-1)?.content ?? '').includes('rejected') ? 'refused' : 'made',
                  ),
          }),
        }),
    },
  });
  const script: OfflineTurn[] = [
    spawn('worker'),
    { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { worker: 'make it' } } }] },
    finish('done'),
  ];

  it('asks before the child’s action runs, and a refusal keeps it from running', async () => {
    const ran: string[] = [];
    const asked: ActionEvent[][] = [];
    const { texts } = await runParent(
      {
        agentTypes: childWithCommand(ran),
        confirm: (agentId, pending) => {
          expect(agentId).toBe('worker');
          asked.push([...pending]);
          return false;
        },
      },
      script,
      { kind: 'AlwaysConfirm' },
    );
    expect(asked.map((batch) => batch.map((action) => action.tool_name))).toEqual([['touch']]);
    expect(ran).toEqual([]);
    expect(texts[1]).toEqual([false, 'Completed delegation of 1 tasks\n\nResults:\n1. Agent worker: refused']);
  });

  it('runs the child’s action once approved', async () => {
    const ran: string[] = [];
    const { texts } = await runParent({ agentTypes: childWithCommand(ran), confirm: () => true }, script, {
      kind: 'AlwaysConfirm',
    });
    expect(ran).toEqual(['made.txt']);
    expect(texts[1]).toEqual([false, 'Completed delegation of 1 tasks\n\nResults:\n1. Agent worker: made']);
  });

  it('never asks when the parent never confirms', async () => {
    const ran: string[] = [];
    const { texts } = await runParent(
      {
        agentTypes: childWithCommand(ran),
        confirm: () => {
          throw new Error('asked under NeverConfirm');
        },
      },
      script,
    );
    expect(ran).toEqual(['made.txt']);
    expect(texts[1]?.[1]).toContain('1. Agent worker: made');
  });
});
