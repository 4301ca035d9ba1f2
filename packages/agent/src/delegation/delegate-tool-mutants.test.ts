// The delegate tool's bookkeeping with remote sub-agents (in-memory `RemoteSubAgentType`s, no protocol) against a
// stand-in parent conversation: what is spawned, asked, closed, counted and reported.
import type { FileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import type { LLM } from '../llm/llm.js';
import type { MetricsSnapshot } from '../llm/metrics.js';
import type { ToolConversation } from '../tools/tool.js';
import { createDelegateTool, type DelegateAction } from './delegate-tool.js';
import type { RemoteAnswer, RemoteSubAgent, RemoteSubAgentType } from './remote-sub-agent.js';

interface FakeRemote extends RemoteSubAgentType {
  /** Tasks each connection was sent, by connection number. */
  asked: string[][];
  closed: number[];
}

/** A remote type whose connections answer with `answer(task)` (throwing fails the task). */
function fakeRemote(answer: (task: string) => string | RemoteAnswer, options: { connectError?: string } = {}) {
  const remote: FakeRemote = {
    asked: [],
    closed: [],
    description: 'a remote',
    async connect(): Promise<RemoteSubAgent> {
      if (options.connectError !== undefined) throw new Error(options.connectError);
      const index = remote.asked.length;
      remote.asked.push([]);
      return {
        send: async (task) => {
          remote.asked[index]?.push(task);
          return answer(task);
        },
        close: async () => {
          remote.closed.push(index);
        },
      };
    },
  };
  return remote;
}

function parent(options: { remainingUsd?: number } = {}) {
  const recorded: Array<[string, MetricsSnapshot]> = [];
  const conversation: ToolConversation = {
    id: 'parent',
    store: {} as FileStore,
    directory: '0123456789abcdef0123456789abcdef',
    persistenceDir: '/nowhere',
    workspace: '/nowhere',
    llm: {} as LLM,
    confirmationPolicy: { kind: 'NeverConfirm' },
    recordUsage: async (usageId, metrics) => {
      recorded.push([usageId, metrics]);
    },
    budgetRemaining: async () =>
      options.remainingUsd === undefined ? undefined : { remainingUsd: options.remainingUsd, allowUnknownCost: true },
  };
  return { conversation, recorded };
}

async function call(
  tool: ReturnType<typeof createDelegateTool>,
  conversation: ToolConversation | undefined,
  action: DelegateAction,
) {
  const observation = await tool.execute(action, {
    workspace: '/nowhere',
    ...(conversation === undefined ? {} : { conversation }),
  });
  return { text: (observation.content[0] as { text: string }).text, isError: observation.is_error };
}

describe('the delegate tool with remote sub-agents', () => {
  it('spawns none of the sub-agents when one cannot connect: those made are closed, those already there stay', async () => {
    const echo = fakeRemote((task) => `echo ${task}`);
    const broken = fakeRemote(() => 'never', { connectError: 'connection refused' });
    const tool = createDelegateTool({ agentTypes: { echo, broken } });
    const { conversation } = parent();
    await call(tool, conversation, { command: 'spawn', ids: ['near'], agent_types: ['echo'] });
    expect(
      await call(tool, conversation, {
        command: 'spawn',
        ids: ['near', 'new', 'far'],
        agent_types: ['echo', 'echo', 'broken'],
      }),
    ).toEqual({ text: 'Could not spawn far (broken): connection refused', isError: true });
    // Connections 1 and 2 were made for the failed spawn and closed; connection 0, the first `near`, is kept.
    expect(echo.closed).toEqual([1, 2]);
    expect(await call(tool, conversation, { command: 'delegate', tasks: { near: 'hello' } })).toEqual({
      text: 'Completed delegation of 1 tasks\n\nResults:\n1. Agent near: echo hello',
      isError: false,
    });
    expect(echo.asked).toEqual([['hello'], [], []]);
    expect(await call(tool, conversation, { command: 'delegate', tasks: { new: 'hi' } })).toEqual({
      text: 'sub-agents not found: new. Available agents: near',
      isError: true,
    });
  });

  it('reports a local sub-agent that cannot be made as the failed spawn, closing the remote one made before it', async () => {
    const echo = fakeRemote((task) => task);
    const bad = {
      createAgent: () => {
        throw new Error('no model configured');
      },
    };
    const tool = createDelegateTool({ agentTypes: { echo, bad } });
    const { conversation } = parent();
    expect(await call(tool, conversation, { command: 'spawn', ids: ['r', 'l'], agent_types: ['echo', 'bad'] })).toEqual(
      { text: 'Could not spawn l (bad): no model configured', isError: true },
    );
    expect(echo.closed).toEqual([0]);
  });

  it('closes the connection it replaces when an id is spawned again', async () => {
    const echo = fakeRemote((task) => task);
    const tool = createDelegateTool({ agentTypes: { echo } });
    const { conversation } = parent();
    await call(tool, conversation, { command: 'spawn', ids: ['a'], agent_types: ['echo'] });
    await call(tool, conversation, { command: 'spawn', ids: ['a'], agent_types: ['echo'] });
    expect(echo.closed).toEqual([0]);
    await call(tool, conversation, { command: 'delegate', tasks: { a: 'again' } });
    expect(echo.asked).toEqual([[], ['again']]);
  });

  it('numbers the results, counts the errors, and records only the spend a remote reported', async () => {
    const paid = fakeRemote((task) => ({ text: `paid ${task}`, usage: { costUsd: 0.25, promptTokens: 3 } }));
    const free = fakeRemote((task) => `free ${task}`);
    const failing = fakeRemote(() => {
      throw new Error('remote exploded');
    });
    const tool = createDelegateTool({ agentTypes: { paid, free, failing } });
    const { conversation, recorded } = parent();
    await call(tool, conversation, {
      command: 'spawn',
      ids: ['p', 'f', 'x'],
      agent_types: ['paid', 'free', 'failing'],
    });
    expect(await call(tool, conversation, { command: 'delegate', tasks: { p: 'one', f: 'two', x: 'three' } })).toEqual({
      text: [
        'Completed delegation of 3 tasks with 1 errors',
        '',
        'Results:',
        '1. Agent p: paid one',
        '2. Agent f: free two',
        '3. Agent x ERROR: Sub-agent x failed: remote exploded',
      ].join('\n'),
      isError: true,
    });
    expect(recorded.map(([usageId, metrics]) => [usageId, metrics.accumulated_cost])).toEqual([['delegate:p', 0.25]]);
  });

  it('asks a remote while some budget is left, and not once it is spent', async () => {
    const echo = fakeRemote((task) => task);
    const tool = createDelegateTool({ agentTypes: { echo } });
    const rich = parent({ remainingUsd: 0.5 });
    await call(tool, rich.conversation, { command: 'spawn', ids: ['a'], agent_types: ['echo'] });
    expect((await call(tool, rich.conversation, { command: 'delegate', tasks: { a: 'go' } })).isError).toBe(false);
    const broke = parent({ remainingUsd: 0 });
    await call(tool, broke.conversation, { command: 'spawn', ids: ['a'], agent_types: ['echo'] });
    expect(await call(tool, broke.conversation, { command: 'delegate', tasks: { a: 'go' } })).toEqual({
      text: 'Completed delegation of 1 tasks with 1 errors\n\nResults:\n1. Agent a ERROR: Sub-agent a was not asked: the budget is spent',
      isError: true,
    });
    expect(echo.asked).toEqual([['go'], []]);
  });
});

describe('the delegate tool refuses', () => {
  it('more agent types than ids, and running without a conversation', async () => {
    const tool = createDelegateTool();
    const { conversation } = parent();
    expect(
      await call(tool, conversation, { command: 'spawn', ids: ['a'], agent_types: ['default', 'default'] }),
    ).toEqual({
      text: 'agent_types length (2) cannot exceed ids length (1)',
      isError: true,
    });
    expect(await call(tool, undefined, { command: 'delegate', tasks: { a: 'x' } })).toEqual({
      text: 'The delegate tool needs a conversation to spawn sub-agents in.',
      isError: true,
    });
  });

  it('names the available agent types and their descriptions to the model', () => {
    const tool = createDelegateTool({ agentTypes: { echo: fakeRemote((task) => task) } });
    expect(tool.description).toContain(
      'Available agent types:\n- default: General-purpose agent with a terminal and a file editor.\n- echo: a remote',
    );
  });
});

describe('the delegate tool and agent types named like inherited properties', () => {
  it('refuses a type the model names after an Object member, and spawns a configured one of that name', async () => {
    const echo = fakeRemote((task) => `echo ${task}`);
    const named = JSON.parse('{"__proto__": 0, "toString": 0}') as Record<string, RemoteSubAgentType>;
    for (const name of Object.keys(named)) named[name] = echo;
    const tool = createDelegateTool({ agentTypes: named });
    const { conversation } = parent();
    for (const name of ['constructor', 'hasOwnProperty']) {
      expect(await call(tool, conversation, { command: 'spawn', ids: ['a'], agent_types: [name] })).toEqual({
        text: `Unknown agent type(s): ${name}. Available: default, __proto__, toString`,
        isError: true,
      });
    }
    expect(
      await call(tool, conversation, { command: 'spawn', ids: ['p', 't'], agent_types: ['__proto__', 'toString'] }),
    ).toMatchObject({ isError: false });
    expect(await call(tool, conversation, { command: 'delegate', tasks: { p: 'one', t: 'two' } })).toMatchObject({
      text: expect.stringContaining('1. Agent p: echo one\n2. Agent t: echo two'),
    });
  });
});
