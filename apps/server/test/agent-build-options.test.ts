import { startAnthropicServer, type WireServer } from '@x/agent/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_TOOL_NAMES } from '../src/api/tool-names.js';
import {
  createConversation,
  createRequest,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitForIdle,
} from './helpers.js';

// What the model is sent for a create body's agent: the tools it names (each once, by class or registry name), the
// stream flag and Anthropic's prompt caching, and what the server keeps of a body that brings no key.
let server: TestServer;
const wires: WireServer[] = [];
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  for (const wire of wires) await wire.close();
  await removeDir(server.dataDir);
});

type ToolSpec = { function?: { name?: string } };

async function firstRequestOf(agent: Record<string, unknown>): Promise<Record<string, unknown>> {
  const before = server.llm.requests.length;
  server.llm.push(finishReply('Done.'));
  const request = createRequest(server.llm);
  const id = await createConversation(server, {
    agent: { ...(request.agent as Record<string, unknown>), ...agent },
    initial_message: { content: [{ type: 'text', text: 'go' }], run: true },
  });
  expect((await waitForIdle(server, id)).execution_status).toBe('finished');
  return server.llm.requests[before] as Record<string, unknown>;
}

describe('the agent a create body describes', () => {
  it('offers each named tool once, whichever of its two names the body uses', async () => {
    const body = await firstRequestOf({
      tools: [
        { name: 'TerminalTool' },
        { name: 'terminal' },
        { name: 'file_editor' },
        { name: 'FileEditorTool' },
        { name: 'TaskTrackerTool' },
        { name: 'GlobTool' },
        { name: 'grep' },
        { name: 'ApplyPatchTool' },
        { name: 'apply_patch' },
      ],
    });
    const names = (body.tools as ToolSpec[]).map((tool) => tool.function?.name).sort();
    expect(names).toEqual([
      'apply_patch',
      'file_editor',
      'finish',
      'glob',
      'grep',
      'task_tracker',
      'terminal',
      'think',
    ]);
  });

  it('offers, for every class name the schema accepts, the tool of that name', async () => {
    const body = await firstRequestOf({ tools: SERVER_TOOL_NAMES.map((tool) => ({ name: tool.className })) });
    const names = (body.tools as ToolSpec[]).map((tool) => tool.function?.name).sort();
    expect(names).toEqual(SERVER_TOOL_NAMES.map((tool) => tool.name).sort());
  });

  it('offers no built-in tool the body does not name', async () => {
    const body = await firstRequestOf({ tools: [{ name: 'grep' }] });
    expect((body.tools as ToolSpec[]).map((tool) => tool.function?.name).sort()).toEqual(['finish', 'grep', 'think']);
  });

  it('streams only when the body asks for it', async () => {
    const plain = await firstRequestOf({ tools: [] });
    expect(plain.stream ?? false).toBe(false);
    const llm = (createRequest(server.llm).agent as { llm: Record<string, unknown> }).llm;
    const streamed = await firstRequestOf({ tools: [], llm: { ...llm, stream: true } });
    expect(streamed.stream).toBe(true);
  });

  it('keeps no key for a body that brings none (null, not the redaction mark)', async () => {
    const request = createRequest(server.llm);
    const agent = request.agent as { llm: Record<string, unknown> };
    const id = await createConversation(server, { agent: { ...agent, llm: { ...agent.llm, api_key: null } } });
    const info = await server.call('GET', `/api/conversations/${id}`);
    expect((info.json as { agent: { llm: { api_key: unknown } } }).agent.llm.api_key).toBeNull();
  });

  it.each([
    [true, true],
    [false, false],
  ])('with caching_prompt %s marks the Anthropic prompt for caching: %s', async (cachingPrompt, marked) => {
    const wire = await startAnthropicServer([{ toolCalls: [{ name: 'finish', arguments: { message: 'Done.' } }] }], {
      apiKey: 'provider-key',
    });
    wires.push(wire);
    const id = await createConversation(server, {
      agent: {
        llm: {
          model: 'anthropic/claude-sonnet-4-6',
          caching_prompt: cachingPrompt,
          base_url: wire.baseURL,
          api_key: 'provider-key',
        },
      },
      initial_message: { content: [{ type: 'text', text: 'hi' }], run: true },
    });
    await waitForIdle(server, id);
    expect(wire.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(wire.requests[0]?.body).includes('cache_control')).toBe(marked);
  });
});
