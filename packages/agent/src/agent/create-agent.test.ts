import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { AgentError } from '../errors.js';
import { defineTool } from '../tools/tool.js';
import { createAgent } from './create-agent.js';
import { NoModelError } from './errors/no-model-error.js';

const MODEL_VARIABLES = [
  'OPENAI_API_KEY',
  'ANTHROPIC_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'X_MODEL',
  'X_PROVIDER',
  'OPENAI_BASE_URL',
];

function withoutModelEnvironment(): void {
  for (const name of MODEL_VARIABLES) vi.stubEnv(name, undefined);
}

afterEach(() => {
  vi.unstubAllEnvs();
});

const wordCount = defineTool({
  name: 'word_count',
  description: 'Count the words in a text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => ({ content: `${text.split(/\s+/).length} words` }),
});

describe('createAgent', () => {
  it('refuses without a model, naming the variables and options to set', () => {
    withoutModelEnvironment();
    let error: unknown;
    try {
      createAgent();
    } catch (caught) {
      error = caught;
    }
    expect(NoModelError.isInstance(error)).toBe(true);
    expect(AgentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'no_model' });
    const message = (error as Error).message;
    for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GEMINI_API_KEY', 'X_MODEL', '`llm`', 'offline: true']) {
      expect(message).toContain(name);
    }
  });

  it('names the model that has no key', () => {
    withoutModelEnvironment();
    expect(() => createAgent({ model: 'anthropic/claude-sonnet-4-6' })).toThrow(
      "No API key for model 'anthropic/claude-sonnet-4-6'",
    );
  });

  it('uses the offline model only when asked, even with a key set', () => {
    withoutModelEnvironment();
    vi.stubEnv('OPENAI_API_KEY', 'sk-test');
    expect(createAgent().llm.offline).toBe(false);
    expect(createAgent({ offline: true }).llm.offline).toBe(true);
  });

  it('keeps the built-in tools with extraTools; tools replaces them', () => {
    const names = (agent: ReturnType<typeof createAgent>) => agent.tools.map((tool) => tool.name).sort();
    expect(names(createAgent({ offline: true, extraTools: [wordCount] }))).toEqual([
      'file_editor',
      'finish',
      'task_tracker',
      'terminal',
      'think',
      'word_count',
    ]);
    expect(names(createAgent({ offline: true, tools: [wordCount] }))).toEqual(['finish', 'think', 'word_count']);
  });
});
