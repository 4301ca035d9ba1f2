import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AnyEvent } from '@x/events';
import { createMemoryFileStore, type FileStore } from '@x/store';
import {
  Agent,
  type AgentOptions,
  Conversation,
  type ConversationOptions,
  createOpenAILLM,
  defaultTools,
} from '../../src/index.js';
import { type ScriptedLLMServer, type ScriptedReply, startScriptedLLMServer } from '../../src/testing/index.js';

export interface Harness {
  server: ScriptedLLMServer;
  workspace: string;
  persistenceDir: string;
  agent(options?: Partial<AgentOptions>): Agent;
  conversation(options?: Partial<ConversationOptions>): Promise<{ conversation: Conversation; events: AnyEvent[] }>;
  memoryStore(): FileStore;
  close(): Promise<void>;
}

/** A scripted OpenAI-compatible server on loopback, a temp workspace and a temp persistence dir. */
export async function startHarness(script: ScriptedReply[] = []): Promise<Harness> {
  const server = await startScriptedLLMServer(script);
  const workspace = await mkdtemp(join(tmpdir(), 'x-agent-ws-'));
  const persistenceDir = await mkdtemp(join(tmpdir(), 'x-agent-data-'));
  const harness: Harness = {
    server,
    workspace,
    persistenceDir,
    agent: (options = {}) =>
      new Agent({
        llm: createOpenAILLM({ model: 'scripted', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 2 }),
        tools: defaultTools(),
        ...options,
      }),
    conversation: async (options = {}) => {
      const events: AnyEvent[] = [];
      const conversation = await Conversation.create({
        agent: options.agent ?? harness.agent(),
        workspace,
        persistenceDir,
        durability: 'none',
        onEvent: (event) => events.push(event),
        ...options,
      });
      return { conversation, events };
    },
    memoryStore: () => createMemoryFileStore(),
    close: async () => {
      await server.close();
      await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
      await rm(persistenceDir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
  return harness;
}

export function kindsOf(events: readonly AnyEvent[]): string[] {
  return events.filter((event) => event.kind !== 'ConversationStateUpdateEvent').map((event) => event.kind);
}
