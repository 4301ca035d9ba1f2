// The delegate tool with local child conversations on offline models: a child that escalates and one whose model
// fails are reported, each under its number, with what it said.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent, ObservationEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { Conversation } from '../conversation/conversation.js';
import { createOfflineLLM, type OfflineTurn } from '../llm/offline-llm.js';
import { createUnsandboxedSandbox } from '../sandbox/unsandboxed.js';
import { defaultTools } from '../tools/default-tools.js';
import { defineTool } from '../tools/tool.js';
import { createDelegateTool, type SubAgentType } from './delegate-tool.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-delegate-children-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  await rm(`${dir}-data`, { recursive: true, force: true, maxRetries: 5 });
});

const call = (name: string, args: Record<string, unknown>): OfflineTurn => ({ toolCalls: [{ name, arguments: args }] });

/** A child type whose agent follows `script` on its own offline model. */
const scripted = (script: OfflineTurn[]): SubAgentType => ({
  createAgent: () => new Agent({ llm: createOfflineLLM({ script }) }),
});

async function delegateOnce(agentTypes: Record<string, SubAgentType>, tasks: Record<string, string>) {
  const events: AnyEvent[] = [];
  const ids = Object.keys(tasks);
  const conversation = await Conversation.create({
    agent: new Agent({
      llm: createOfflineLLM({
        script: [
          call('delegate', { command: 'spawn', ids, agent_types: ids }),
          call('delegate', { command: 'delegate', tasks }),
          call('finish', { message: 'done' }),
        ],
      }),
      tools: [createDelegateTool({ agentTypes })],
    }),
    workspace: dir,
    // Beside the workspace: a sandbox is refused where its workspace holds the conversation store.
    persistenceDir: `${dir}-data`,
    durability: 'none',
    onEvent: (event) => events.push(event),
  });
  await conversation.sendMessage('Split the work');
  const result = await conversation.run();
  await conversation.close();
  const observation = events.filter(
    (event): event is ObservationEvent => event.kind === 'ObservationEvent' && event.tool_name === 'delegate',
  )[1];
  return { result, observation, text: (observation?.observation.content[0] as { text: string } | undefined)?.text };
}

describe('delegating to local children', () => {
  it('reports an escalation under its number, says the run stops, and stops it', async () => {
    const { result, text } = await delegateOnce(
      {
        answers: scripted([call('finish', { message: 'all fine' })]),
        asks: scripted([call('escalate', { reason: 'needs a human' })]),
      },
      { answers: 'check it', asks: 'delete prod' },
    );
    expect(text).toBe(
      [
        'Completed delegation of 2 tasks; 1 escalated to a human, the run stops here',
        '',
        'Results:',
        '1. Agent answers: all fine',
        '2. Agent asks ESCALATED: needs a human',
      ].join('\n'),
    );
    expect(result.status).toBe('paused');
  });

  it("names the error a child's conversation recorded when it stops with status 'error'", async () => {
    const noop = defineTool({
      name: 'noop',
      description: 'Does nothing.',
      parameters: z.object({ step: z.number() }),
      execute: () => ({ content: 'nothing' }),
    });
    // Its one iteration is spent on a tool call: the run ends at the limit (status error, MaxIterationsReached).
    const busy: SubAgentType = {
      createAgent: () =>
        new Agent({
          tools: [noop],
          llm: createOfflineLLM({ script: [call('noop', { step: 1 }), call('noop', { step: 2 })] }),
        }),
      maxIterationsPerRun: 1,
    };
    const { observation, text } = await delegateOnce({ busy }, { busy: 'work' });
    expect(observation?.observation.is_error).toBe(true);
    expect(text).toMatch(
      /^1\. Agent busy ERROR: Sub-agent busy failed: it stopped with status 'error': MaxIterationsReached: \S/m,
    );
  });

  it("runs a child's commands in the sandbox the parent opened, not one of its own", async () => {
    const spawned: string[] = [];
    let opened = 0;
    const conversation = await Conversation.create({
      agent: new Agent({
        llm: createOfflineLLM({
          script: [
            call('delegate', { command: 'spawn', ids: ['worker'] }),
            call('delegate', { command: 'delegate', tasks: { worker: 'say hi' } }),
            call('finish', { message: 'done' }),
          ],
        }),
        tools: [
          createDelegateTool({
            agentTypes: {
              default: {
                createAgent: () =>
                  new Agent({
                    llm: createOfflineLLM({
                      script: [call('terminal', { command: 'echo hi' }), call('finish', { message: 'said' })],
                    }),
                    tools: defaultTools(),
                  }),
              },
            },
          }),
        ],
      }),
      workspace: dir,
      // Beside the workspace: a sandbox is refused where its workspace holds the conversation store.
      persistenceDir: `${dir}-data`,
      durability: 'none',
      openSandbox: async (request) => {
        opened += 1;
        const sandbox = createUnsandboxedSandbox({ workspace: request.workspace, warn: () => undefined });
        return {
          ...sandbox,
          spawn: (options) => {
            spawned.push(options.command);
            return sandbox.spawn(options);
          },
        };
      },
    });
    await conversation.sendMessage('Delegate');
    await conversation.run();
    await conversation.close();
    expect({ opened, spawned }).toEqual({ opened: 1, spawned: ['/bin/bash'] });
  });
});
