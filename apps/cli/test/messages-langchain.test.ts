import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromLangChainStoredMessages, type LangChainStoredMessage } from '@x/agent';
import { eventsToMessages, toChatCompletionsMessages, View } from '@x/events';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from './helpers/run-cli.js';

const FIXTURES = fileURLToPath(new URL('../../../packages/events/test/__fixtures__/openhands/', import.meta.url));
const home = tempDir();
afterAll(() => home.remove());
const env = { X_HOME: home.path };

const TYPES: Record<string, string> = { system: 'system', user: 'human', assistant: 'ai', tool: 'tool' };

describe('x messages --format langchain', () => {
  it("prints LangChain's stored messages for a conversation the reference wrote, which import back as the same messages", async () => {
    const dir = join(home.path, '03_parallel_tool_calls');
    cpSync(join(FIXTURES, '03_parallel_tool_calls'), dir, { recursive: true });
    const expected = JSON.parse(readFileSync(join(dir, 'expected.json'), 'utf8')).messages as {
      role: string;
      tool_call_id?: string;
      tool_calls?: { id: string }[];
    }[];
    const result = await runCli(['messages', dir, '--format', 'langchain'], { env });
    expect(result.code).toBe(0);
    const stored = JSON.parse(result.stdout) as LangChainStoredMessage[];
    expect(stored.map((message) => message.type)).toEqual(expected.map((message) => TYPES[message.role]));
    stored.forEach((message, index) => {
      expect(message.data).toMatchObject({
        additional_kwargs: expect.any(Object),
        response_metadata: expect.any(Object),
      });
      const calls = (message.data.tool_calls as { id: string; args: unknown }[] | undefined) ?? [];
      expect(calls.map((call) => call.id)).toEqual((expected[index]!.tool_calls ?? []).map((call) => call.id));
      expect(message.data.tool_call_id).toBe(expected[index]!.tool_call_id);
    });

    const openai = await runCli(['messages', dir], { env });
    const imported = await fromLangChainStoredMessages(stored);
    const reimported = toChatCompletionsMessages(eventsToMessages(View.fromEvents(imported).events), {
      visionEnabled: true,
    });
    const parsedArguments = (value: unknown) =>
      JSON.parse(JSON.stringify(value), (key, item) =>
        key === 'arguments' && typeof item === 'string' ? JSON.parse(item) : item,
      );
    expect(parsedArguments(reimported)).toEqual(parsedArguments(JSON.parse(openai.stdout)));
  });
});
