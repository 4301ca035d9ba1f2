// Shared by the a2a-*.test.ts files: a real server on 127.0.0.1 whose A2A tasks run on the scripted model
// by default (`useA2aFixture` gives a test file one), the official `@a2a-js/sdk` client found from its card, builders for
// the SDK's message types, and `collect` to read a stream to its end.
import { randomUUID } from 'node:crypto';
import type { Message, Part, SendMessageRequest, StreamResponse } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import { afterAll, beforeAll } from 'vitest';
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

/**
 * One fixture for the calling test file: started before its first test (`beforeAll`), stopped after its last
 * (`afterAll`). The object returned is filled in when it has started, so tests read `fixture.server` and
 * `fixture.client` as they would a fixture of their own.
 */
export function useA2aFixture(config: Partial<ServerConfigInput> = {}, build: BuildServerOptions = {}): A2aFixture {
  const fixture = {} as A2aFixture;
  beforeAll(async () => {
    Object.assign(fixture, await startA2aFixture(config, build));
  });
  afterAll(async () => {
    // Undefined when the start failed: that failure is the one to report.
    await fixture.stop?.();
  });
  return fixture;
}

/** One item of an A2A stream: the task, a status update, an artifact update or a message. */
export type StreamPayload = StreamResponse['payload'];

/** Every item of the stream, read until the server ends it. */
export async function collect(stream: AsyncIterable<StreamResponse>): Promise<StreamPayload[]> {
  const items: StreamPayload[] = [];
  for await (const event of stream) items.push(event.payload);
  return items;
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
