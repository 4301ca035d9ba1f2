// `Conversation.sendMessage` as the reference's `send_message`: a user message only, a string as one text part,
// a finished or stuck conversation made idle (no other status touched), persisted at once, and the hooks' session
// started by the first message of the process.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { createMemoryFileStore, type FileStore } from '@x/store';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  Agent,
  AgentError,
  Conversation,
  ConversationClosedError,
  type ConversationOptions,
  createOfflineLLM,
  finishTool,
  InvalidMessageError,
  thinkTool,
} from '../src/index.js';

type Turn = { toolCalls: { name: string; arguments: Record<string, unknown> }[] };
const think: Turn = { toolCalls: [{ name: 'think', arguments: { thought: 'again' } }] };
const finish: Turn = { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };

let workspace: string;
let store: FileStore;
beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'x-send-message-'));
  store = createMemoryFileStore();
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

async function create(turns: Turn[], options: Partial<ConversationOptions> = {}) {
  const events: AnyEvent[] = [];
  const conversation = await Conversation.create({
    agent: new Agent({ llm: createOfflineLLM({ script: turns }), tools: [thinkTool, finishTool] }),
    store,
    workspace,
    onEvent: (event) => events.push(event),
    ...options,
  });
  return { conversation, events };
}

async function persistedStatus(conversation: Conversation): Promise<unknown> {
  const base = JSON.parse(await store.read(`${conversation.directory}/base_state.json`)) as Record<string, unknown>;
  return base.execution_status;
}

const userMessages = (events: readonly AnyEvent[]) =>
  events.filter((event) => event.kind === 'MessageEvent' && event.source === 'user');

describe('sendMessage', () => {
  it('records a string as one text part of a user message, without prompt caching (the reference default)', async () => {
    const { conversation, events } = await create([]);
    await conversation.sendMessage('hello');
    expect(userMessages(events)).toMatchObject([
      { llm_message: { role: 'user', content: [{ type: 'text', text: 'hello', cache_prompt: false }] } },
    ]);
    await conversation.close();
  });

  it('refuses a message of another role than user, naming it, with nothing recorded', async () => {
    const { conversation, events } = await create([]);
    const sent = conversation.sendMessage({
      role: 'assistant',
      content: [{ type: 'text', text: 'I am the model', cache_prompt: false }],
      thinking_blocks: [],
    });
    await expect(sent).rejects.toBeInstanceOf(InvalidMessageError);
    await expect(sent).rejects.toSatisfy(
      (error) => AgentError.isInstance(error) && error.code === 'invalid_message' && /'assistant'/.test(error.message),
    );
    expect(userMessages(events)).toEqual([]);
    await conversation.close();
  });

  it('is refused once the conversation is closed, with nothing recorded', async () => {
    const { conversation, events } = await create([]);
    await conversation.close();
    const before = events.length;
    await expect(conversation.sendMessage('too late')).rejects.toBeInstanceOf(ConversationClosedError);
    expect(events).toHaveLength(before);
  });

  it('makes a finished conversation idle, persisted at once', async () => {
    const { conversation } = await create([finish]);
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('finished');
    await conversation.sendMessage('and now?');
    expect(conversation.state.execution_status).toBe('idle');
    expect(await persistedStatus(conversation)).toBe('idle');
    await conversation.close();
  });

  it('makes a stuck conversation idle, persisted at once', async () => {
    const { conversation } = await create([think, think, think, think]);
    await conversation.sendMessage('loop');
    expect((await conversation.run()).status).toBe('stuck');
    await conversation.sendMessage('try something else');
    expect(conversation.state.execution_status).toBe('idle');
    expect(await persistedStatus(conversation)).toBe('idle');
    await conversation.close();
  });

  it('leaves a paused conversation paused (the reference resets only finished and stuck)', async () => {
    const { conversation, events } = await create([]);
    await conversation.pause();
    expect(conversation.state.execution_status).toBe('paused');
    await conversation.sendMessage('for later');
    expect(conversation.state.execution_status).toBe('paused');
    expect(await persistedStatus(conversation)).toBe('paused');
    expect(userMessages(events)).toHaveLength(1);
    await conversation.close();
  });

  it("starts the hooks' session with the first message, before the message is recorded", async () => {
    const { conversation, events } = await create([], {
      hooks: { SessionStart: [{ hooks: [{ command: 'echo started' }] }] },
    });
    await conversation.sendMessage('hi');
    const order = events
      .filter((event) => event.kind === 'HookExecutionEvent' || event.kind === 'MessageEvent')
      .map((event) => (event.kind === 'HookExecutionEvent' ? `hook:${event.hook_event_type}` : event.kind));
    expect(order).toEqual(['hook:SessionStart', 'MessageEvent']);
    await conversation.close();
  });
});
