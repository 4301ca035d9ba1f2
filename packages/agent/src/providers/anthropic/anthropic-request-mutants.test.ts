import type { Message } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import type { LLMTool } from '../../llm/llm.js';
import { startAnthropicServer, type WireServer } from '../../testing/wire/index.js';
import type { AnthropicLLMConfig } from './anthropic-config.js';
import { createAnthropicLLM } from './anthropic-llm.js';

/**
 * What the Anthropic SDK puts on the wire for a request (the body the local server received): cache
 * marks, thinking, temperature, max_tokens, images, system and tools.
 */

let server: WireServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const text = (value: string) => ({ cache_prompt: false, type: 'text' as const, text: value });
const user = (value: string): Message => ({ role: 'user', content: [text(value)], thinking_blocks: [] });
const system: Message = { role: 'system', content: [text('Be brief.')], thinking_blocks: [] };
const tools: LLMTool[] = ['read', 'write'].map((name) => ({
  type: 'function',
  function: { name, description: `${name} a file`, parameters: { properties: { path: { type: 'string' } } } },
}));

/** Three user turns: a question, tool results with a follow-up, and a last question. */
const history: Message[] = [
  system,
  user('first'),
  {
    role: 'assistant',
    content: [],
    thinking_blocks: [],
    tool_calls: [{ id: 'toolu_a', name: 'read', arguments: '{"path":"a"}', origin: 'completion' }],
  },
  { role: 'tool', tool_call_id: 'toolu_a', name: 'read', content: [text('contents of a')], thinking_blocks: [] },
  user('and then?'),
  { role: 'assistant', content: [text('Done.')], thinking_blocks: [] },
  user('last'),
];

async function sent(config: Partial<AnthropicLLMConfig>, messages: Message[], withTools = true) {
  // A test may send several requests; each gets a fresh server, and the last one is closed after it.
  await server?.close();
  server = await startAnthropicServer([{ text: 'ok' }]);
  const llm = createAnthropicLLM({
    model: 'anthropic/claude-sonnet-4-6',
    baseURL: server.baseURL,
    apiKey: 'sk-ant-test',
    maxRetries: 0,
    ...config,
  });
  await llm.complete({ messages, ...(withTools && { tools }) });
  const request = server.requests[0];
  expect(request?.violations).toEqual([]);
  return request?.body as Record<string, unknown> & {
    system?: { cache_control?: unknown }[];
    tools?: { name: string; cache_control?: unknown }[];
    messages: { role: string; content: { type: string; cache_control?: unknown }[] }[];
  };
}

/** Where the cache marks are: "system", "tool:<name>", or "<turn>.<block>" of the messages. */
function marks(body: Awaited<ReturnType<typeof sent>>): string[] {
  const found: string[] = [];
  for (const block of body.system ?? []) if (block.cache_control) found.push('system');
  for (const tool of body.tools ?? []) if (tool.cache_control) found.push(`tool:${tool.name}`);
  body.messages.forEach((turn, index) => {
    turn.content.forEach((block, at) => {
      if (block.cache_control) found.push(`${index}.${at}`);
    });
  });
  return found;
}

describe('Anthropic prompt caching marks', () => {
  it('marks the system prompt, the last tool and the last block of the two latest user turns by default', async () => {
    const body = await sent({}, history);
    expect(body.messages.map((turn) => turn.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    // Turn 2 is the tool result followed by the user's follow-up: the mark goes on the follow-up.
    expect(marks(body)).toEqual(['system', 'tool:write', '2.1', '4.0']);
    expect(body.messages[2]?.content.map((block) => block.type)).toEqual(['tool_result', 'text']);
    for (const mark of [body.system?.[0]?.cache_control, body.tools?.[1]?.cache_control]) {
      expect(mark).toEqual({ type: 'ephemeral' });
    }
  });

  it('marks the only user turn of a first request', async () => {
    expect(marks(await sent({ promptCaching: true }, [system, user('hello')]))).toEqual([
      'system',
      'tool:write',
      '0.0',
    ]);
  });

  it('sends no marks at all when caching is off', async () => {
    const body = await sent({ promptCaching: false }, history);
    expect(marks(body)).toEqual([]);
    expect(JSON.stringify(body)).not.toContain('cache_control');
  });

  it('follows each caching option on its own', async () => {
    expect(marks(await sent({ promptCaching: { system: false } }, history))).toEqual(['tool:write', '2.1', '4.0']);
    expect(marks(await sent({ promptCaching: { tools: false, recentTurns: 1 } }, history))).toEqual(['system', '4.0']);
    expect(marks(await sent({ promptCaching: { recentTurns: 0 } }, history))).toEqual(['system', 'tool:write']);
    expect(marks(await sent({ promptCaching: { recentTurns: 3 } }, history, false))).toEqual([
      'system',
      '0.0',
      '2.1',
      '4.0',
    ]);
  });

  it('gives the turns only the marks the system prompt and the tools leave of the four Anthropic allows', async () => {
    expect(marks(await sent({ promptCaching: { recentTurns: 4 } }, history))).toEqual([
      'system',
      'tool:write',
      '2.1',
      '4.0',
    ]);
  });

  it('never marks an assistant turn, whatever it ends with', async () => {
    const body = await sent({ promptCaching: { recentTurns: 4 } }, history, false);
    const assistantMarks = body.messages.filter(
      (turn) => turn.role === 'assistant' && turn.content.some((block) => block.cache_control),
    );
    expect(assistantMarks).toEqual([]);
  });
});

describe('Anthropic request parameters', () => {
  it('sends neither system nor tools when there are none, and one tool when there is one', async () => {
    const bare = await sent({}, [user('hi')], false);
    expect(bare).not.toHaveProperty('system');
    expect(bare).not.toHaveProperty('tools');
    await server?.close();
    server = await startAnthropicServer([{ text: 'ok' }]);
    const llm = createAnthropicLLM({
      model: 'claude-sonnet-4-6',
      baseURL: server.baseURL,
      apiKey: 'sk-ant-test',
      maxRetries: 0,
    });
    await llm.complete({ messages: [user('hi')], tools: [tools[0] as LLMTool] });
    expect(server.requests[0]?.body.tools).toEqual([
      {
        name: 'read',
        description: 'read a file',
        input_schema: { type: 'object', properties: { path: { type: 'string' } } },
        cache_control: { type: 'ephemeral' },
      },
    ]);
  });

  it('sends images by default and drops them when vision is off', async () => {
    const picture: Message = {
      role: 'user',
      content: [
        text('what is this?'),
        { cache_prompt: false, type: 'image', image_urls: ['data:image/png;base64,AAAA'] },
      ],
      thinking_blocks: [],
    };
    const withVision = await sent({ promptCaching: false }, [picture], false);
    expect(withVision.messages[0]?.content).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
    ]);
    const without = await sent({ promptCaching: false, vision: false }, [picture], false);
    expect(without.messages[0]?.content).toEqual([{ type: 'text', text: 'what is this?' }]);
  });

  it('without thinking: the configured max_tokens as given, and the temperature', async () => {
    const body = await sent({ maxOutputTokens: 500, temperature: 0.3 }, [user('hi')], false);
    expect(body).toMatchObject({ max_tokens: 500, temperature: 0.3 });
    expect(body).not.toHaveProperty('thinking');
    expect((await sent({}, [user('hi')], false)).max_tokens).toBe(8192);
  });

  it('with a thinking budget: max_tokens above it, and no temperature (Anthropic rejects one)', async () => {
    const body = await sent(
      { thinking: { budgetTokens: 2048 }, maxOutputTokens: 1000, temperature: 0.3 },
      [user('hi')],
      false,
    );
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
    expect(body.max_tokens).toBe(2048 + 1024);
    expect(body).not.toHaveProperty('temperature');
  });

  it('with adaptive thinking: no budget, the configured max_tokens, and no temperature', async () => {
    const body = await sent({ thinking: { type: 'adaptive' }, maxOutputTokens: 600, temperature: 0.3 }, [user('hi')]);
    expect(body.thinking).toEqual({ type: 'adaptive' });
    expect(body.max_tokens).toBe(600);
    expect(body).not.toHaveProperty('temperature');
  });
});
