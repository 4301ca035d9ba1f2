import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Conversation,
  createOpenAILLM,
  defaultTools,
  defineTool,
  InvalidToolCallError,
  ToolExecutionError,
} from '../src/index.js';
import { type ScriptedLLMServer, startScriptedLLMServer } from '../src/testing/index.js';
import { type Harness, kindsOf, startHarness } from './support/harness.js';

let harness: Harness;
let other: ScriptedLLMServer | undefined;
afterEach(async () => {
  await harness?.close();
  await other?.close();
  other = undefined;
});

const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });
const plan = [
  { title: 'read the spec', notes: '', status: 'done' as const },
  { title: 'write the code', notes: 'small files', status: 'in_progress' as const },
];

describe("the reference's conversation API", () => {
  it('executeTool runs a tool outside the loop, recorded so the model sees it; the task list lands on the state', async () => {
    harness = await startHarness([finish('noted')]);
    const { conversation, events } = await harness.conversation();
    const observation = await conversation.executeTool('task_tracker', { command: 'plan', task_list: plan });
    expect(observation.kind).toBe('TaskTrackerObservation');
    expect(kindsOf(events).slice(-2)).toEqual(['ActionEvent', 'ObservationEvent']);
    expect(conversation.state.task_list).toEqual(plan);
    expect(conversation.state.pending_actions).toEqual([]);

    await conversation.sendMessage('what is the plan?');
    await conversation.run();
    // The model's next request carries the recorded call and its result.
    const messages = harness.server.requests[0]?.messages as {
      role: string;
      tool_calls?: { function: { name: string } }[];
    }[];
    expect(messages.some((message) => message.tool_calls?.[0]?.function.name === 'task_tracker')).toBe(true);
    expect(messages.some((message) => message.role === 'tool')).toBe(true);

    // The task list survives a resume (it is part of the state checkpoint).
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
    });
    expect(resumed.state.task_list).toEqual(plan);
    await resumed.close();
  });

  it('executeTool refuses an unknown tool or bad arguments with InvalidToolCallError, recording nothing', async () => {
    harness = await startHarness();
    const { conversation, events } = await harness.conversation();
    const before = events.length;
    await expect(conversation.executeTool('no_such_tool', {})).rejects.toBeInstanceOf(InvalidToolCallError);
    await expect(
      conversation.executeTool('task_tracker', { command: 'plan', task_list: [{ status: 'whenever' }] }),
    ).rejects.toBeInstanceOf(InvalidToolCallError);
    expect(events.length).toBe(before);
    // A tool that fails is recorded as the loop records it, and thrown.
    const failing = defineTool({
      name: 'always_fails',
      description: 'Fails.',
      parameters: z.object({}),
      execute: async () => {
        throw new ToolExecutionError('always_fails', 'it always fails');
      },
    });
    const withFailing = await harness.conversation({ agent: harness.agent({ tools: [...defaultTools(), failing] }) });
    await expect(withFailing.conversation.executeTool('always_fails', {})).rejects.toBeInstanceOf(ToolExecutionError);
    expect(kindsOf(withFailing.events).slice(-2)).toEqual(['ActionEvent', 'AgentErrorEvent']);
    await withFailing.conversation.close();
    await conversation.close();
  });

  it('switchLLM: the next step calls the new model; recorded in the log and base_state.json', async () => {
    harness = await startHarness();
    other = await startScriptedLLMServer([finish('from the other model')]);
    const { conversation, events } = await harness.conversation();
    const switched = createOpenAILLM({
      model: 'other-model',
      baseURL: other.baseURL,
      apiKey: 'sk-other',
      usageId: 'other',
    });
    await conversation.switchLLM(switched);
    expect(conversation.llm).toBe(switched);
    const update = events.filter((event) => event.kind === 'ConversationStateUpdateEvent').at(-1);
    expect(update).toMatchObject({ key: 'llm', value: { model: 'other-model', usage_id: 'other' } });
    expect(JSON.stringify(update)).not.toContain('sk-other');

    await conversation.sendMessage('hello');
    await conversation.run();
    expect(harness.server.requests).toHaveLength(0);
    expect(other.requests[0]?.model).toBe('other-model');
    expect(Object.keys(conversation.stats.usage_to_metrics)).toContain('other');
    const base = JSON.parse(
      await readFile(join(harness.persistenceDir, conversation.directory, 'base_state.json'), 'utf8'),
    );
    expect(base.agent.llm).toMatchObject({ model: 'other-model', usage_id: 'other' });
    await conversation.close();
  });

  it('exposes stats, maxIterationsPerRun and stuckDetector, and calls onStateChange for state changes only', async () => {
    harness = await startHarness([finish('done')]);
    const { conversation } = await harness.conversation({ maxIterationsPerRun: 7, stuckDetection: false });
    expect(conversation.maxIterationsPerRun).toBe(7);
    expect(conversation.stuckDetector).toBeUndefined();
    const changes: string[] = [];
    const stop = conversation.onStateChange((state, change) => {
      changes.push(`${change.key}=${change.key === 'execution_status' ? state.execution_status : '…'}`);
    });
    await conversation.sendMessage('go');
    await conversation.run();
    stop();
    expect(changes).toContain('execution_status=running');
    expect(changes).toContain('execution_status=finished');
    expect(changes.every((change) => !change.startsWith('MessageEvent'))).toBe(true);
    expect(conversation.stats.usage_to_metrics).not.toEqual({});
    const withDetection = await harness.conversation();
    expect(withDetection.conversation.stuckDetector).toBeDefined();
    await conversation.close();
    await withDetection.conversation.close();
  });
});
