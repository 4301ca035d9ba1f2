import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type ConfirmationPolicy, Conversation, createOpenAILLM, createTerminalTool } from '@x/agent';
import { type ScriptedLLMServer, startScriptedLLMServer } from '@x/agent/testing';
import type { AnyEvent } from '@x/events';
import { createMemoryFileStore } from '@x/store';
import { RemoteConversation } from '../../src/client/index.js';
import { type BuiltServer, buildServer } from '../../src/index.js';
import type { ScenarioConversation, ScenarioDriver } from './conversation-scenarios.js';

/** Resources of one scenario run, released by `close()`. */
function cleanupList(): { add(step: () => Promise<unknown>): void; run(): Promise<void> } {
  const steps: (() => Promise<unknown>)[] = [];
  return {
    add: (step) => steps.push(step),
    async run() {
      for (const step of steps.splice(0).reverse()) await step().catch(() => undefined);
    },
  };
}

/** The local `Conversation` of @x/agent, on a memory store, with the scripted model. */
export function localDriver(): ScenarioDriver {
  const cleanup = cleanupList();
  return {
    name: 'local Conversation',
    async start({ script, confirmationPolicy }) {
      const llm = await startScriptedLLMServer(script);
      const workspace = await mkdtemp(join(tmpdir(), 'x-scenario-'));
      cleanup.add(() => llm.close());
      cleanup.add(() => rm(workspace, { recursive: true, force: true, maxRetries: 5 }));
      const agent = new Agent({
        llm: createOpenAILLM({ model: 'gpt-test', baseURL: llm.baseURL, apiKey: 'sk-test', maxRetries: 0 }),
        tools: [createTerminalTool()],
      });
      const conversation = await Conversation.create({
        agent,
        workspace,
        store: createMemoryFileStore(),
        ...(confirmationPolicy === undefined ? {} : { confirmationPolicy: confirmationPolicy as ConfirmationPolicy }),
      });
      cleanup.add(() => conversation.close());
      return {
        sendMessage: (text) => conversation.sendMessage(text),
        run: async () => (await conversation.run()).status,
        pause: () => conversation.pause(),
        rejectPendingActions: (reason) => conversation.rejectPendingActions(reason),
        status: () => conversation.state.execution_status,
        events: async () => collect(conversation.events()),
      } satisfies ScenarioConversation;
    },
    close: () => cleanup.run(),
  };
}

/** `RemoteConversation` against a real `buildServer` on 127.0.0.1, with the scripted model. */
export function remoteDriver(): ScenarioDriver {
  const cleanup = cleanupList();
  return {
    name: 'RemoteConversation',
    async start({ script, confirmationPolicy }) {
      const llm: ScriptedLLMServer = await startScriptedLLMServer(script);
      const dataDir = await mkdtemp(join(tmpdir(), 'x-scenario-server-'));
      cleanup.add(() => llm.close());
      cleanup.add(() => rm(dataDir, { recursive: true, force: true, maxRetries: 5 }));
      const server: BuiltServer = await buildServer({ port: 0, dataDir, logLevel: 'silent' });
      const { url } = await server.listen();
      cleanup.add(() => server.close());
      const conversation = await RemoteConversation.create(url, {
        agent: {
          llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test' },
          tools: [{ name: 'TerminalTool' }],
        },
        workspace: join(dataDir, 'workspaces'),
        pollIntervalMs: 200,
        ...(confirmationPolicy === undefined ? {} : { confirmationPolicy }),
      });
      cleanup.add(() => conversation.close());
      return {
        sendMessage: (text) => conversation.sendMessage(text),
        run: async () => (await conversation.run()).status,
        pause: () => conversation.pause(),
        rejectPendingActions: (reason) => conversation.rejectPendingActions(reason),
        status: () => conversation.state.execution_status,
        events: async () => collect(conversation.events()),
      } satisfies ScenarioConversation;
    },
    close: () => cleanup.run(),
  };
}

async function collect(events: AsyncIterable<AnyEvent>): Promise<AnyEvent[]> {
  const all: AnyEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}
