// The terminal's description and its `timeout` parameter tell the model after how long a silent command pauses:
// that figure is the soft timeout the tool was made with, since a model told a shorter one (the reference's text
// says 10 s) sets `timeout` on commands that need none, and one told a longer one waits in vain.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SystemPromptEvent, ToolDefinition } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Agent,
  Conversation,
  createOpenAILLM,
  createTerminalTool,
  defaultTools,
  terminalParameters,
  toolToChatTool,
} from '../src/index.js';

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true, maxRetries: 5 });
});

/** The terminal's definition in the SystemPromptEvent of a new conversation whose agent has these tools. */
async function terminalDefinition(noChangeTimeoutSeconds?: number): Promise<ToolDefinition> {
  const workspace = await mkdtemp(join(tmpdir(), 'x-terminal-description-'));
  directories.push(workspace);
  // The conversation never runs: the LLM is never called.
  const llm = createOpenAILLM({ model: 'unused', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-test', maxRetries: 0 });
  const terminal = noChangeTimeoutSeconds === undefined ? {} : { noChangeTimeoutSeconds };
  const agent = new Agent({ llm, tools: defaultTools({ terminal }) });
  const conversation = await Conversation.create({ agent, workspace, durability: 'none' });
  try {
    const events = await conversation.activeBranch();
    const systemPrompt = events.find((event): event is SystemPromptEvent => event.kind === 'SystemPromptEvent')!;
    return systemPrompt.tools.find((tool) => tool.kind === 'TerminalTool')!;
  } finally {
    await conversation.close();
  }
}

function timeoutParameterText(noChangeTimeoutSeconds?: number): string {
  const tool = createTerminalTool(noChangeTimeoutSeconds === undefined ? {} : { noChangeTimeoutSeconds });
  const properties = toolToChatTool(tool).function.parameters.properties as Record<string, { description: string }>;
  return properties.timeout!.description;
}

describe('terminal: the soft timeout the model is told', () => {
  it('is the default 30 seconds in the SystemPromptEvent and the timeout parameter', async () => {
    const definition = await terminalDefinition();
    expect(definition.description).toContain('Commands pause for confirmation after 30 seconds without');
    expect(definition.description).not.toMatch(/after 10 seconds/);
    expect(timeoutParameterText()).toContain('when it produces no new output for 30 seconds.');
  });

  it('is the configured noChangeTimeoutSeconds, in both texts', async () => {
    const definition = await terminalDefinition(45);
    expect(definition.description).toContain('Commands pause for confirmation after 45 seconds without');
    expect(timeoutParameterText(45)).toContain('when it produces no new output for 45 seconds.');
    expect(timeoutParameterText(2.5)).toContain('no new output for 2.5 seconds.');
    expect(timeoutParameterText(1)).toContain('no new output for 1 second.');
  });

  it('leaves the exported parameter schema with the default figure', () => {
    const text = terminalParameters.shape.timeout.description;
    expect(text).toContain('no new output for 30 seconds.');
  });
});
