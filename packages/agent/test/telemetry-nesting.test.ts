import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { AnyEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Conversation,
  type ConversationOptions,
  createDelegateTool,
  createOfflineLLM,
  defineTool,
  type OfflineTurn,
} from '../src/index.js';
import { startScriptedLLMServer } from '../src/testing/index.js';
import { parentOf, registerTestSdk, type TestSdk } from './support/otel-sdk.js';

let dir: string;
let sdk: TestSdk;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-otel-'));
  sdk = registerTestSdk();
});
afterEach(async () => {
  await sdk.shutdown();
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  await rm(`${dir}-data`, { recursive: true, force: true, maxRetries: 5 });
});

const finish = (message: string): OfflineTurn => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

async function run(agent: Agent, options: Partial<ConversationOptions> = {}) {
  const conversation = await Conversation.create({
    agent,
    workspace: dir,
    // Beside the workspace: a sandbox is refused where its workspace holds the conversation store.
    persistenceDir: `${dir}-data`,
    durability: 'none',
    ...options,
  });
  await conversation.sendMessage('go');
  const result = await conversation.run().catch((error: unknown) => error);
  await conversation.close();
  return { conversation, result };
}

const byName = (name: string) => sdk.spans().filter((span) => span.name === name);
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe('span nesting and errors', () => {
  it('nests a sub-agent run under the delegate tool span, named after the sub-agent', async () => {
    const tool = createDelegateTool({
      agentTypes: {
        default: { createAgent: () => new Agent({ llm: createOfflineLLM({ script: [finish('child done')] }) }) },
      },
    });
    const parent = new Agent({
      tools: [tool],
      llm: createOfflineLLM({
        script: [
          { toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['helper'] } }] },
          { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks: { helper: 'help' } } }] },
          finish('all delegated'),
        ],
      }),
    });
    const { conversation } = await run(parent);

    const [root] = byName('invoke_agent Agent');
    expect(root!.attributes['gen_ai.conversation.id']).toBe(conversation.id);
    const delegations = byName('execute_tool delegate');
    expect(delegations).toHaveLength(2);
    const [child] = byName('invoke_agent helper');
    expect(child).toBeDefined();
    expect(child!.attributes).toMatchObject({ 'gen_ai.agent.name': 'helper', 'gen_ai.provider.name': 'offline' });
    expect(child!.attributes['gen_ai.conversation.id']).not.toBe(conversation.id);
    expect(delegations.map(idOf)).toContain(parentOf(child!));
    expect(delegations.every((span) => parentOf(span) === idOf(root!))).toBe(true);
    // The child's own model call and finish nest under the child's run.
    const childSpans = sdk.spans().filter((span) => parentOf(span) === idOf(child!));
    expect(childSpans.map((span) => span.name)).toEqual(['chat offline', 'execute_tool finish']);
  });

  it('records a failing tool on its span with the secret-masked message', async () => {
    const broken = defineTool({
      name: 'broken',
      description: 'Always fails.',
      parameters: z.object({}),
      execute: async () => {
        throw new Error('could not use hunter2-password');
      },
    });
    const agent = new Agent({
      tools: [broken],
      llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'broken', arguments: {} }] }, finish('gave up')] }),
    });
    await run(agent, { secrets: { PASSWORD: 'hunter2-password' } });
    const [span] = byName('execute_tool broken');
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.attributes['error.type']).toBe('Error');
    expect(span!.attributes['gen_ai.tool.description']).toBe('Always fails.');
    expect(JSON.stringify([span!.status, span!.events])).toContain('could not use <secret-hidden>');
    expect(JSON.stringify([span!.status, span!.events, span!.attributes])).not.toContain('hunter2');
  });

  it('marks the chat and agent spans failed when the model call fails, and meters the failure', async () => {
    const server = await startScriptedLLMServer([{ error: { status: 400, message: 'bad request' } }]);
    try {
      const { createOpenAILLM } = await import('../src/index.js');
      const llm = createOpenAILLM({ model: 'scripted', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 });
      const { result } = await run(new Agent({ llm }));
      expect(result).toBeInstanceOf(Error);
    } finally {
      await server.close();
    }
    const [chat] = byName('chat scripted');
    const [agent] = byName('invoke_agent Agent');
    expect(chat!.status.code).toBe(SpanStatusCode.ERROR);
    expect(agent!.status.code).toBe(SpanStatusCode.ERROR);
    const type = chat!.attributes['error.type'];
    expect(type).toMatch(/^LLM\w+Error$/);
    expect(parentOf(chat!)).toBe(idOf(agent!));
    const duration = (await sdk.histograms()).get('gen_ai.client.operation.duration')!;
    expect(duration.dataPoints.map((point) => point.attributes['error.type'])).toEqual([type]);
    expect((await sdk.histograms()).get('gen_ai.client.token.usage')?.dataPoints ?? []).toEqual([]);
  });

  it('gives each hook command a run_hook span inside the run', async () => {
    const agent = new Agent({ llm: createOfflineLLM({ script: [finish('done')] }) });
    const events: AnyEvent[] = [];
    await run(agent, { hooks: { Stop: [{ hooks: [{ command: 'exit 0' }] }] }, onEvent: (event) => events.push(event) });
    const [hook] = byName('run_hook Stop');
    const [root] = byName('invoke_agent Agent');
    expect(hook!.attributes).toMatchObject({
      'gen_ai.operation.name': 'run_hook',
      'x.hook.event_type': 'Stop',
      'x.hook.blocked': false,
    });
    expect(parentOf(hook!)).toBe(idOf(root!));
    const recorded = events.find((event) => event.kind === 'HookExecutionEvent');
    expect(hook!.attributes['x.event.id']).toBe(recorded!.id);
    expect(hook!.status.code).not.toBe(SpanStatusCode.ERROR);
  });

  it('marks the run_hook span of a failing hook command failed', async () => {
    const agent = new Agent({ llm: createOfflineLLM({ script: [finish('done')] }) });
    await run(agent, { hooks: { Stop: [{ hooks: [{ command: 'exit 3' }] }] } });
    const [hook] = byName('run_hook Stop');
    expect(hook!.status).toMatchObject({ code: SpanStatusCode.ERROR, message: 'Stop hook failed' });
    expect(hook!.attributes['error.type']).toBe('HookFailed');
  });
});
