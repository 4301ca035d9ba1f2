import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { Agent, Conversation, createGeminiLLM } from '../src/index.js';
import { startGeminiServer, type WireServer } from '../src/testing/index.js';

/** The agent's step with a Gemini tool call that Gemini could not deliver (MALFORMED_FUNCTION_CALL). */

let server: WireServer | undefined;
let workspace: string;
let dataDir: string;

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'x-gemini-malformed-'));
  dataDir = await mkdtemp(join(tmpdir(), 'x-gemini-malformed-data-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
  await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
});

it('tells the model its call failed, as for a call with invalid JSON arguments, and the model retries', async () => {
  server = await startGeminiServer([
    { stopReason: 'MALFORMED_FUNCTION_CALL', usage: { input: 100, output: 5 } },
    { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }], usage: { input: 150, output: 6 } },
  ]);
  const llm = createGeminiLLM({
    model: 'gemini/gemini-2.5-flash',
    baseURL: server.baseURL,
    apiKey: 'gm',
    maxRetries: 0,
  });
  const events: AnyEvent[] = [];
  const conversation = await Conversation.create({
    agent: new Agent({ llm, tools: [] }),
    workspace,
    persistenceDir: dataDir,
    durability: 'none',
    onEvent: (event) => events.push(event),
  });
  await conversation.sendMessage('Finish.');
  expect((await conversation.run()).status).toBe('finished');

  const [failed, retried] = events.filter((event) => event.kind === 'ActionEvent');
  expect(failed).toMatchObject({ tool_name: 'malformed_function_call', llm_response_id: 'gemini-resp-1' });
  expect(failed?.action).toBeUndefined();
  const error = events.find((event) => event.kind === 'AgentErrorEvent');
  expect(error).toMatchObject({ tool_name: 'malformed_function_call', tool_call_id: failed?.tool_call_id });
  expect(error?.kind === 'AgentErrorEvent' && error.error).toMatch(
    /^Error validating tool 'malformed_function_call': .*Arguments: unparseable JSON$/s,
  );
  expect(retried?.action).toMatchObject({ message: 'done' });

  expect(server.requests).toHaveLength(2);
  expect(server.requests.flatMap((request) => request.violations)).toEqual([]);
  // The retry's request carries the failed call and the error as its answer.
  expect(JSON.stringify(server.requests[1]?.body.contents)).toContain('"functionResponse"');
  // Both calls are metered, the failed one too.
  expect(conversation.state.stats.usage_to_metrics.default?.accumulated_token_usage.prompt_tokens).toBe(250);
  await conversation.close();
});
