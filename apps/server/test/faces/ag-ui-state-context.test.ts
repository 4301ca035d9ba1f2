// The run input's shared `state` and `context` through the AG-UI face, judged by `@ag-ui/client`'s HttpAgent
// against `x serve` and its scripted OpenAI-protocol model: state is the session state (recorded, streamed as JSON
// Patches, shown to the model), context goes on the run's user message (in the log, in the model's request). Bad
// ones, and frontend tools named like any agent's tool (handoff tools too), get a typed RUN_ERROR and change nothing.
import { randomUUID } from 'node:crypto';
import type { RunAgentInput } from '@ag-ui/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd as run, XAgent } from '../support/ag-ui-agent.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

async function logOf(threadId: string) {
  const conversation = await (await server.built.manager.require(threadId)).open();
  return { conversation, events: await conversation.log.range(0, conversation.log.length) };
}

/** An HttpAgent whose request carries `context` as given: its own checks refuse a malformed one before sending. */
class RawContextAgent extends XAgent {
  rawContext: unknown;

  protected override requestInit(input: RunAgentInput): RequestInit {
    const init = super.requestInit(input);
    return { ...init, body: JSON.stringify({ ...JSON.parse(String(init.body)), context: this.rawContext }) };
  }
}

/** The text of the last user message of the model's last request (content and extended content together). */
function lastUserText(): string {
  const messages = (server.llm.requests.at(-1)?.messages ?? []) as { role: string; content: unknown }[];
  const user = messages.filter((message) => message.role === 'user').at(-1);
  const content = user?.content;
  if (typeof content === 'string') return content;
  return ((content ?? []) as { text?: string }[]).map((part) => part.text ?? '').join('\n');
}

const stateUpdates = (events: readonly { kind: string; key?: string }[]) =>
  events.filter((event) => event.kind === 'ConversationStateUpdateEvent' && event.key === 'state_delta');

describe('AG-UI shared state and context', () => {
  it('records the client’s state, streams it as patches, and gives it and the context to the model', async () => {
    const threadId = randomUUID();
    const agent = new XAgent(server.url, threadId);
    agent.state = { theme: 'dark', cart: ['apple'] };
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'What should I buy?' });
    server.llm.push(finishReply('Pears.'));
    const first = await run(agent, {
      context: [{ description: 'The page the user is on', value: '/checkout' }],
      forwardedProps: { conversation: createRequest(server.llm) },
    });
    expect(first.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
    // The model read both, on the user message of the run.
    expect(lastUserText()).toContain('What should I buy?');
    expect(lastUserText()).toContain('The page the user is on:\n/checkout');
    expect(lastUserText()).toContain('{"theme":"dark","cart":["apple"]}');
    // Recorded: one session-state update, and the user message's extended content (so a replay has them).
    const { conversation, events } = await logOf(threadId);
    expect(conversation.session.state).toEqual({ theme: 'dark', cart: ['apple'] });
    expect(stateUpdates(events)).toHaveLength(1);
    const message = events.find((event) => event.kind === 'MessageEvent' && event.source === 'user');
    expect(JSON.stringify(message)).toContain('/checkout');
    // Streamed: the empty snapshot from before the input, then the update as a JSON Patch.
    expect(first.find((event) => event.type === 'STATE_SNAPSHOT')).toMatchObject({ snapshot: {} });
    expect(first.find((event) => event.type === 'STATE_DELTA')).toMatchObject({
      delta: [
        { op: 'add', path: '/theme', value: 'dark' },
        { op: 'add', path: '/cart', value: ['apple'] },
      ],
    });
    expect(agent.state).toEqual({ theme: 'dark', cart: ['apple'] });

    // A second client that has not seen the state erases nothing and gets it as the snapshot.
    const other = new XAgent(server.url, threadId);
    other.messages = [...agent.messages, { id: randomUUID(), role: 'user', content: 'And now?' }];
    server.llm.push(finishReply('Plums.'));
    const second = await run(other);
    expect(second.find((event) => event.type === 'STATE_SNAPSHOT')).toMatchObject({
      snapshot: { theme: 'dark', cart: ['apple'] },
    });
    expect(other.state).toEqual({ theme: 'dark', cart: ['apple'] });
    expect(stateUpdates((await logOf(threadId)).events)).toHaveLength(1);
    // The earlier context is still in the model's history; this run brought none.
    expect(JSON.stringify(server.llm.requests.at(-1)?.messages)).toContain('/checkout');
    expect(lastUserText()).not.toContain('<context>');

    // null removes a key: recorded, and a `remove` patch to the client.
    agent.messages = [...other.messages];
    agent.state = { ...other.state, theme: null };
    agent.addMessage({ id: randomUUID(), role: 'user', content: 'Forget the theme' });
    server.llm.push(finishReply('Done.'));
    const third = await run(agent);
    expect(third.find((event) => event.type === 'STATE_DELTA')).toMatchObject({
      delta: [{ op: 'remove', path: '/theme' }],
    });
    expect(agent.state).toEqual({ cart: ['apple'] });
    expect((await logOf(threadId)).conversation.session.state).toEqual({ cart: ['apple'] });
    expect(lastUserText()).toContain('{"cart":["apple"]}');
  });

  it('refuses a state that is not an object, or too large, and a malformed context, recording nothing', async () => {
    const cases: { code: string; state?: unknown; context?: unknown; text: string }[] = [
      { code: 'invalid_state', state: ['not', 'an', 'object'], text: 'must be a JSON object' },
      { code: 'invalid_state', state: { blob: 'x'.repeat(70_000) }, text: 'bytes of JSON' },
      { code: 'invalid_context', context: [{ description: 'page', value: 42 }], text: 'context.0.value' },
    ];
    for (const { code, state, context, text } of cases) {
      const threadId = randomUUID();
      const agent = new RawContextAgent(server.url, threadId);
      agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hi' });
      if (state !== undefined) agent.state = state;
      agent.rawContext = context ?? [];
      const events = await run(agent, { forwardedProps: { conversation: createRequest(server.llm) } });
      expect(events).toEqual([
        expect.objectContaining({ type: 'RUN_ERROR', code, message: expect.stringContaining(text) }),
      ]);
      const { conversation, events: logged } = await logOf(threadId);
      expect(logged.some((event) => event.kind === 'MessageEvent' && event.source === 'user')).toBe(false);
      expect(conversation.session.state).toEqual({});
    }
  });

  it('refuses a frontend tool named like a tool of another agent of the thread, or a handoff tool', async () => {
    const llm = { model: 'gpt-test', base_url: server.llm.baseURL, api_key: 'sk-test-secret' };
    const create = {
      agent: { llm, tools: [] },
      agents: { helper: { llm, tools: [{ name: 'TerminalTool' }] } },
    };
    for (const name of ['terminal', 'transfer_to_agent']) {
      const threadId = randomUUID();
      const agent = new XAgent(server.url, threadId);
      agent.addMessage({ id: randomUUID(), role: 'user', content: 'Hi' });
      const events = await run(agent, {
        tools: [{ name, description: 'mine', parameters: { type: 'object' } }],
        forwardedProps: { conversation: create },
      });
      expect(events).toEqual([
        expect.objectContaining({ type: 'RUN_ERROR', code: 'tool_name_clash', message: expect.stringContaining(name) }),
      ]);
      const { events: logged } = await logOf(threadId);
      expect(logged.some((event) => event.kind === 'MessageEvent' && event.source === 'user')).toBe(false);
    }
  });
});
