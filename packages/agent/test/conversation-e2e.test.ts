import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActionEvent, AgentErrorEvent, AnyEvent, ObservationEvent } from '@x/events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Conversation, ConversationAlreadyRunningError, ConversationRunError, stateAt } from '../src/index.js';
import { type Harness, kindsOf, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

function ofKind<K extends AnyEvent['kind']>(events: readonly AnyEvent[], kind: K): Extract<AnyEvent, { kind: K }>[] {
  return events.filter((event): event is Extract<AnyEvent, { kind: K }> => event.kind === kind);
}

describe('Conversation end to end (real openai client over HTTP)', () => {
  it('uses tools over several steps, then finishes', async () => {
    harness = await startHarness([
      {
        content: 'Creating the file.',
        toolCalls: [{ name: 'file_editor', arguments: { command: 'create', path: 'notes.txt', file_text: 'alpha\n' } }],
      },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'cat notes.txt && echo done' } }] },
      finish('Wrote and showed notes.txt'),
    ]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('Write notes.txt and show it');
    const result = await conversation.run();

    expect(result).toMatchObject({ status: 'finished', iterations: 3, reachedIterationLimit: false });
    expect(await readFile(join(harness.workspace, 'notes.txt'), 'utf8')).toBe('alpha\n');
    expect(kindsOf(events)).toEqual([
      'SystemPromptEvent',
      'MessageEvent',
      'ActionEvent',
      'ObservationEvent',
      'ActionEvent',
      'ObservationEvent',
      'ActionEvent',
      'ObservationEvent',
    ]);
    const terminal = ofKind(events, 'ObservationEvent')[1] as ObservationEvent;
    expect(terminal.observation.kind).toBe('TerminalObservation');
    expect(JSON.stringify(terminal.observation.content)).toContain('alpha');
    // The second request carries the first tool result, answered by its call id.
    const second = harness.server.requests[1]?.messages as { role: string; tool_call_id?: string }[];
    expect(second.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: (ofKind(events, 'ActionEvent')[0] as ActionEvent).tool_call_id,
    });
    expect(conversation.state.iteration).toBe(3);
    expect(conversation.state.pending_actions).toEqual([]);
  });

  it('groups parallel tool calls into one assistant message and answers each', async () => {
    harness = await startHarness([
      {
        content: 'Thinking three ways.',
        toolCalls: [
          { name: 'think', arguments: { thought: 'one' } },
          { name: 'think', arguments: { thought: 'two' } },
          { name: 'think', arguments: { thought: 'three' } },
        ],
      },
      finish('done'),
    ]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('Consider options');
    await conversation.run();
    const actions = ofKind(events, 'ActionEvent');
    expect(new Set(actions.slice(0, 3).map((action) => action.llm_response_id)).size).toBe(1);
    expect(actions.slice(1, 3).every((action) => action.thought.length === 0)).toBe(true);
    const messages = harness.server.requests[1]?.messages as { role: string; tool_calls?: unknown[] }[];
    const assistant = messages.filter((message) => message.role === 'assistant');
    expect(assistant).toHaveLength(1);
    expect(assistant[0]?.tool_calls).toHaveLength(3);
    expect(messages.filter((message) => message.role === 'tool')).toHaveLength(3);
  });

  it('finishes on a plain reply without tool calls', async () => {
    harness = await startHarness([{ content: 'Hello! Nothing to do.' }]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('hi');
    expect((await conversation.run()).status).toBe('finished');
    const reply = ofKind(events, 'MessageEvent').at(-1);
    expect(reply?.source).toBe('agent');
    expect(reply?.llm_response_id).toBe('chatcmpl-1');
  });

  it('turns malformed arguments and unknown tools into errors the model sees, then recovers', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: '{"command": "ls' }] },
      { toolCalls: [{ name: 'no_such_tool', arguments: {} }] },
      { toolCalls: [{ name: 'file_editor', arguments: { command: 'view' } }] },
      finish('recovered'),
    ]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('finished');
    const errors = ofKind(events, 'AgentErrorEvent') as AgentErrorEvent[];
    expect(errors.map((error) => error.error)).toEqual([
      expect.stringContaining("Error validating tool 'terminal'"),
      expect.stringContaining("Tool 'no_such_tool' not found. Available: ["),
      expect.stringContaining("Error validating tool 'file_editor'"),
    ]);
    expect(errors.every((error) => error.classification.kind === 'agent_action')).toBe(true);
    const actions = ofKind(events, 'ActionEvent');
    expect(actions[0]?.action).toBeUndefined();
    expect(JSON.parse(actions[0]?.tool_call.arguments ?? '{}')).toMatchObject({ _openhands_malformed_tool_call: true });
    // The model saw each error as the result of its call.
    const fourth = harness.server.requests[3]?.messages as { role: string; content: unknown }[];
    expect(fourth.filter((message) => message.role === 'tool')).toHaveLength(3);
  });

  it('retries a 429 and succeeds', async () => {
    harness = await startHarness([
      { error: { status: 429, code: 'rate_limit_exceeded', message: 'slow down' }, headers: { 'retry-after-ms': '5' } },
      { content: 'ok' },
    ]);
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('hi');
    expect((await conversation.run()).status).toBe('finished');
    expect(harness.server.requests).toHaveLength(2);
  });

  it('stops at the per-run iteration limit with a MaxIterationsReached error event, without throwing', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'think', arguments: { thought: 'a' } }] },
      { toolCalls: [{ name: 'think', arguments: { thought: 'b' } }] },
    ]);
    const { conversation, events } = await harness.conversation({ maxIterationsPerRun: 2 });
    await conversation.sendMessage('loop');
    const result = await conversation.run();
    expect(result).toMatchObject({ status: 'error', iterations: 2, reachedIterationLimit: true });
    const error = ofKind(events, 'ConversationErrorEvent').at(-1);
    expect(error).toMatchObject({
      code: 'MaxIterationsReached',
      detail: 'Agent reached maximum iterations limit (2).',
    });
    expect(error?.classification).toMatchObject({ kind: 'agent_action', retryable: false });
  });

  it('refuses a second concurrent run with a typed error', async () => {
    harness = await startHarness([{ content: 'slow', delayMs: 300 }]);
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('hi');
    const first = conversation.run();
    await expect(conversation.run()).rejects.toBeInstanceOf(ConversationAlreadyRunningError);
    await first;
  });

  it('records a failing model as a ConversationErrorEvent and throws ConversationRunError', async () => {
    harness = await startHarness([{ error: { status: 401, message: 'bad key' } }]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('hi');
    const failure = await conversation.run().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConversationRunError);
    expect(conversation.state.execution_status).toBe('error');
    expect(ofKind(events, 'ConversationErrorEvent').at(-1)).toMatchObject({ code: 'LLMAuthenticationError' });
  });

  it('pauses between steps and resumes from disk in a new Conversation instance', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'think', arguments: { thought: 'step one' } }] },
      finish('all done'),
    ]);
    const { conversation } = await harness.conversation();
    conversation.subscribe((event) => {
      if (event.kind === 'ObservationEvent') void conversation.pause();
    });
    await conversation.sendMessage('two steps please');
    expect((await conversation.run()).status).toBe('paused');
    await conversation.close();

    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
    });
    expect(resumed.state.execution_status).toBe('paused');
    expect(resumed.state.event_count).toBe(conversation.state.event_count);
    expect((await resumed.run()).status).toBe('finished');
    const kinds: string[] = [];
    for await (const event of resumed.events()) kinds.push(event.kind);
    expect(kinds.filter((kind) => kind === 'PauseEvent')).toHaveLength(1);
  });

  it("holds the answer's actions when paused while the model is answering, and runs them once on the next run", async () => {
    // The model answers only after the pause: the test never races a delay against a loaded machine.
    let answer: () => void = () => undefined;
    const paused = new Promise<void>((resolve) => {
      answer = resolve;
    });
    harness = await startHarness([
      { toolCalls: [{ name: 'think', arguments: { thought: 'slow' } }], gate: paused },
      finish('should not be reached in this run'),
    ]);
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('go');
    const running = conversation.run();
    await vi.waitFor(() => expect(harness.server.requests).toHaveLength(1), { timeout: 60_000, interval: 10 });
    await conversation.pause();
    answer();
    const result = await running;
    expect(result.status).toBe('paused');
    expect(harness.server.requests).toHaveLength(1);
    // The answer's action is recorded but held: a pause starts no further action (not even this step's).
    expect(conversation.state.pending_actions.map((action) => action.tool_name)).toEqual(['think']);
    const observationsOf = async () => {
      const all: AnyEvent[] = [];
      for await (const event of conversation.events()) all.push(event);
      return all.filter((event): event is ObservationEvent => event.kind === 'ObservationEvent');
    };
    expect(await observationsOf()).toHaveLength(0);
    // The next run executes it once, then asks the model again.
    const resumed = await conversation.run();
    expect(resumed.status).toBe('finished');
    expect(harness.server.requests).toHaveLength(2);
    expect((await observationsOf()).map((event) => event.tool_name)).toEqual(['think', 'finish']);
  });

  it('derives the same state from the log as it held live, at every index (time travel)', async () => {
    harness = await startHarness([
      {
        toolCalls: [
          { name: 'think', arguments: { thought: 'x' } },
          { name: 'think', arguments: { thought: 'y' } },
        ],
      },
      finish('ok'),
    ]);
    const { conversation } = await harness.conversation();
    const live: unknown[] = [];
    conversation.subscribe(() => live.push(conversation.state));
    await conversation.sendMessage('go');
    await conversation.run();
    const all: AnyEvent[] = [];
    for await (const event of conversation.events()) all.push(event);
    expect(await stateAt(conversation.id, all)).toEqual(conversation.state);
    const midway = await stateAt(conversation.id, all, 5);
    expect(midway.event_count).toBe(5);
  });
});
