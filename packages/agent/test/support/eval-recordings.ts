import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, type AgentOptions, Conversation, createOpenAILLM, defaultTools, type LLM } from '../../src/index.js';
import { type ScriptedReply, startScriptedLLMServer } from '../../src/testing/index.js';

/** The agent under test in these evals: the built-in tools around the given model. */
export function evalAgent(llm: LLM, options: Partial<AgentOptions> = {}): Agent {
  return new Agent({ llm, tools: defaultTools(), ...options });
}

export const TASK = 'Write notes.txt and show it';

/** A run that writes notes.txt, shows it and finishes: no errors, within notes.txt. */
export const GOOD_SCRIPT: ScriptedReply[] = [
  {
    content: 'Creating the file.',
    toolCalls: [{ name: 'file_editor', arguments: { command: 'create', path: 'notes.txt', file_text: 'alpha\n' } }],
  },
  { toolCalls: [{ name: 'terminal', arguments: { command: 'cat notes.txt' } }] },
  { toolCalls: [{ name: 'finish', arguments: { message: 'Wrote notes.txt: alpha' } }] },
];

/** A run that calls a tool that does not exist (an AgentErrorEvent) and writes outside the allowed paths. */
export const BAD_SCRIPT: ScriptedReply[] = [
  { toolCalls: [{ name: 'no_such_tool', arguments: {} }] },
  {
    toolCalls: [{ name: 'file_editor', arguments: { command: 'create', path: 'src/other.txt', file_text: 'beta\n' } }],
  },
  { toolCalls: [{ name: 'finish', arguments: { message: 'Something else' } }] },
];

/**
 * Records a real conversation: the agent runs `TASK` against the scripted OpenAI-compatible server on loopback
 * (as `gpt-4o`, so the price table gives it a cost), persisted under `root/conversations`. Returns its directory.
 */
export async function recordConversation(root: string, script: ScriptedReply[]): Promise<string> {
  const server = await startScriptedLLMServer(script);
  try {
    const workspace = await mkdtemp(join(root, 'ws-'));
    const llm = createOpenAILLM({ model: 'gpt-4o', baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 });
    const conversation = await Conversation.create({
      agent: evalAgent(llm),
      workspace,
      persistenceDir: join(root, 'conversations'),
    });
    try {
      await conversation.sendMessage(TASK);
      await conversation.run().catch(() => undefined);
      return conversation.location;
    } finally {
      await conversation.close();
    }
  } finally {
    await server.close();
  }
}
