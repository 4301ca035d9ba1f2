import type { AnthropicMessageParam, Message } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import type { LLMRequest, LLMResponse } from '../../llm/llm.js';
import { startAnthropicServer, type WireReply, type WireServer } from '../../testing/wire/index.js';
import { AnthropicContainers, REMEMBERED_CALLS } from './anthropic-containers.js';
import { createAnthropicLLM } from './anthropic-llm.js';
import type { AnthropicReply } from './anthropic-response.js';

/**
 * Anthropic's code execution runs in a container (its files, and with programmatic tool calling a process waiting on
 * the calls): a reply says which (`container`), and the request that continues it after a pause, or answers its tool
 * calls, must name it. The local server rejects a request that does not, as Anthropic does.
 */

let server: WireServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const user = (text: string): Message => ({
  role: 'user',
  content: [{ cache_prompt: false, type: 'text', text }],
  thinking_blocks: [],
});

const toolResult = (id: string): Message => ({
  role: 'tool',
  tool_call_id: id,
  name: 'read',
  content: [{ cache_prompt: false, type: 'text', text: 'the file' }],
  thinking_blocks: [],
});

const LIVE = { id: 'container_live', expires_at: '2999-01-01T00:00:00Z' };
const EXPIRED = { id: 'container_gone', expires_at: '2000-01-01T00:00:00Z' };
const run = { type: 'server_tool_use', id: 'srvtoolu_1', name: 'code_execution', input: { code: 'print(1)' } };
const readCall = (id: string) => ({ toolCalls: [{ id, name: 'read', arguments: { path: 'a' } }] });

async function llmAnswering(script: WireReply[]) {
  server = await startAnthropicServer(script);
  return createAnthropicLLM({
    model: 'anthropic/claude-sonnet-4-6',
    baseURL: server.baseURL,
    apiKey: 'sk-ant-test',
    maxRetries: 0,
  });
}

const sent = () => (server as WireServer).requests.map((request) => request.body.container);
const violations = () => (server as WireServer).requests.flatMap((request) => request.violations);

describe.each([false, true])('an Anthropic reply that ran in a container (streaming: %s)', (stream) => {
  const ask = (llm: Awaited<ReturnType<typeof llmAnswering>>, messages: Message[]): Promise<LLMResponse> => {
    const request: LLMRequest = { messages, ...(stream && { onDelta: () => undefined }) };
    return llm.complete(request);
  };

  it('is continued after a pause in the same container', async () => {
    const llm = await llmAnswering([
      { anthropicBlocks: [run], stopReason: 'pause_turn', container: LIVE },
      { text: 'It printed 1.', container: LIVE },
    ]);
    const response = await ask(llm, [user('Run it.')]);
    expect(response.message.content).toEqual([{ cache_prompt: false, type: 'text', text: 'It printed 1.' }]);
    expect(violations()).toEqual([]);
    expect(sent()).toEqual([undefined, LIVE.id]);
  });

  it('is answered in the same container: the request with its tool results names it', async () => {
    const llm = await llmAnswering([{ ...readCall('toolu_a'), container: LIVE }, { text: 'Done.' }]);
    const first = await ask(llm, [user('Read a.')]);
    await ask(llm, [user('Read a.'), first.message, toolResult('toolu_a')]);
    expect(violations()).toEqual([]);
    expect(sent()).toEqual([undefined, LIVE.id]);
  });

  it('names the container of the latest paused part, and of the answer that ended in tool calls', async () => {
    const llm = await llmAnswering([
      { anthropicBlocks: [run], stopReason: 'pause_turn' },
      { text: 'Now reading. ', stopReason: 'pause_turn', container: LIVE },
      readCall('toolu_b'),
      { text: 'Done.' },
    ]);
    const first = await ask(llm, [user('Run, then read.')]);
    await ask(llm, [user('Run, then read.'), first.message, toolResult('toolu_b')]);
    expect(violations()).toEqual([]);
    expect(sent()).toEqual([undefined, undefined, LIVE.id, LIVE.id]);
  });

  it('is not named for another conversation on the same LLM, nor once it has expired', async () => {
    const llm = await llmAnswering([
      { ...readCall('toolu_c'), container: LIVE },
      readCall('toolu_other'),
      { text: 'Other done.' },
      { ...readCall('toolu_d'), container: EXPIRED },
      { text: 'Done.' },
    ]);
    await ask(llm, [user('Read a.')]);
    const other = await ask(llm, [user('Something else.')]);
    await ask(llm, [user('Something else.'), other.message, toolResult('toolu_other')]);
    const expiring = await ask(llm, [user('Read d.')]);
    await ask(llm, [user('Read d.'), expiring.message, toolResult('toolu_d')]);
    expect(violations()).toEqual([]);
    expect(sent()).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('AnthropicContainers', () => {
  const reply = (toolCallId: string): AnthropicReply => ({
    id: `msg_${toolCallId}`,
    content: [{ type: 'tool_use', id: toolCallId, name: 'read', input: {} }],
    stop_reason: 'tool_use',
    usage: null,
    container: LIVE,
  });
  const turnCalling = (toolCallId: string): AnthropicMessageParam[] => [
    { role: 'assistant', content: [{ type: 'tool_use', id: toolCallId, name: 'read', input: {} }] },
  ];

  it('remembers the latest REMEMBERED_CALLS tool calls, so a long-lived LLM stays small', () => {
    const containers = new AnthropicContainers();
    for (let index = 0; index <= REMEMBERED_CALLS; index++) containers.remember(reply(`toolu_${index}`));
    expect(containers.containerOf(turnCalling('toolu_0'))).toBeUndefined();
    expect(containers.containerOf(turnCalling('toolu_1'))).toBe(LIVE.id);
    expect(containers.containerOf(turnCalling(`toolu_${REMEMBERED_CALLS}`))).toBe(LIVE.id);
  });
});
