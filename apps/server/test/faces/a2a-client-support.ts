// Shared by the a2a-client-*.test.ts files: a real server on 127.0.0.1 whose A2A tasks run on the scripted model
// by default, the official `@a2a-js/sdk` client found from its card, and builders for the SDK's message types.
import { randomUUID } from 'node:crypto';
import type { Message, Part, SendMessageRequest } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import type { BuildServerOptions, ServerConfigInput } from '../../src/index.js';
import { createRequest, removeDir, startTestServer, type TestServer } from '../helpers.js';

export interface A2aFixture {
  server: TestServer;
  client: Client;
  stop(): Promise<void>;
}

/** A server whose A2A tasks default to the scripted model, and an SDK client made from its agent card. */
export async function startA2aFixture(
  config: Partial<ServerConfigInput> = {},
  build: BuildServerOptions = {},
): Promise<A2aFixture> {
  const llm = await startScriptedLLMServer();
  const withDefault = await startTestServer({
    llm,
    config: { a2aConversation: createRequest(llm) as ServerConfigInput['a2aConversation'], ...config },
    build,
  });
  const client = await new ClientFactory().createFromUrl(withDefault.url);
  return {
    server: withDefault,
    client,
    async stop() {
      await withDefault.stop();
      await removeDir(withDefault.dataDir);
    },
  };
}

export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: '',
});

/** A user message (ROLE_USER) with the given parts, continuing nothing unless `ids` say so. */
export function userMessage(
  parts: Part[],
  ids: { taskId?: string; contextId?: string; referenceTaskIds?: string[] } = {},
): Message {
  return {
    messageId: randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: 1,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: ids.referenceTaskIds ?? [],
  };
}

export const send = (message: Message): SendMessageRequest => ({
  tenant: '',
  message,
  configuration: undefined,
  metadata: undefined,
});

/** The text of the user turns the model was sent in its latest request. */
export function userTextsSeen(llm: ScriptedLLMServer): string[] {
  const messages = (llm.requests.at(-1)?.messages ?? []) as { role: string; content: unknown }[];
  return messages
    .filter((message) => message.role === 'user')
    .map((message) =>
      typeof message.content === 'string'
        ? message.content
        : (message.content as { text?: string }[]).map((block) => block.text ?? '').join(''),
    );
}
