import { type AnyEvent, createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import type { ToolContext, ToolConversation } from '../tools/tool.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';
import { createRecallTool, withRecallTool } from './recall-tool.js';

// What the recall tool promises around its arguments and its shape: the argument bounds the model sees, its
// read-only nature (no security risk asked of a re-read), and the limits given through withRecallTool.
const events: AnyEvent[] = ['a', 'b', 'c'].map((text) =>
  createEvent('MessageEvent', { source: 'user', llm_message: { role: 'user', content: [{ type: 'text', text }] } }),
);
const context: ToolContext = {
  workspace: '/nowhere',
  conversation: { activeBranch: async () => events } as unknown as ToolConversation,
};
const textOf = (observation: { content: unknown }) => (observation.content as { text: string }[])[0]!.text;
const failure = (data: unknown) =>
  createRecallTool()
    .execute({ data, kind: 'MCPToolAction' }, context)
    .then(
      () => undefined,
      (error: unknown) => error,
    );

describe('recall arguments', () => {
  it.each([
    ['event_ids', { event_ids: [] }],
    ['query', { query: '' }],
    ['max_results', { start_index: 0, max_results: 0 }],
    ['max_results', { start_index: 0, max_results: 51 }],
    ['start_index', { start_index: -1 }],
    ['end_index', { start_index: 0, end_index: -1 }],
  ])('refuses an out-of-bounds %s before reading anything', async (field, data) => {
    const error = await failure(data);
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect((error as Error).message).toMatch(new RegExp(`^Invalid arguments for tool 'recall': ${field}: `));
  });

  it('names the whole arguments when they are not an object', async () => {
    const error = await failure('everything');
    expect((error as Error).message).toMatch(/^Invalid arguments for tool 'recall': data: /);
  });

  it('reads index 0 alone', async () => {
    const observation = await createRecallTool().execute(
      { data: { start_index: 0, end_index: 0 }, kind: 'MCPToolAction' },
      context,
    );
    expect(observation.is_error).toBe(false);
    expect(textOf(observation).split('\n')[0]).toBe(
      'Events 0-0 (1 the model can read; state updates and condensations skipped)',
    );
  });
});

describe('the recall tool’s shape', () => {
  it('is read-only and idempotent, and closed to the world', () => {
    const tool = createRecallTool();
    expect(tool.readOnly).toBe(true);
    expect(tool.annotations).toEqual({
      title: 'recall',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
  });

  it('takes the limits given with withRecallTool', async () => {
    const [tool] = withRecallTool([], { recall: { limits: { maxResults: 1 } } });
    const observation = await tool!.execute({ data: { start_index: 0, end_index: 2 }, kind: 'MCPToolAction' }, context);
    expect(textOf(observation)).toContain('[truncated: 2 more events not shown (max_results 1)');
  });
});
