import { type AnyEvent, createEvent } from '@x/events';
import { createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { createOfflineLLM } from '../llm/offline-llm.js';
import { parseToolCall } from '../tools/parse-tool-call.js';
import type { ToolContext } from '../tools/tool.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';
import { InvalidRecallError } from './invalid-recall-error.js';
import { createRecallTool, withRecallTool } from './recall-tool.js';

const events: AnyEvent[] = [
  createEvent('MessageEvent', {
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: 'a' }] },
  }),
  createEvent('MessageEvent', {
    source: 'user',
    llm_message: { role: 'user', content: [{ type: 'text', text: 'b' }] },
  }),
];

function contextWith(history: readonly AnyEvent[]): ToolContext {
  return {
    workspace: '/tmp',
    conversation: {
      id: 'c',
      store: createMemoryFileStore(),
      directory: 'c',
      persistenceDir: '/tmp',
      workspace: '/tmp',
      llm: createOfflineLLM({ script: [] }),
      confirmationPolicy: { kind: 'NeverConfirm' },
      activeBranch: async () => history,
    },
  };
}

describe('the recall tool', () => {
  it('parses a call into the reference MCP action shape and answers with an MCPToolObservation', async () => {
    const tool = createRecallTool();
    const parsed = parseToolCall(
      { id: 'call_1', name: 'recall', arguments: '{"start_index": 0, "end_index": 1}', origin: 'completion' },
      [tool],
      { securityAnalyzerEnabled: true },
    );
    if (!parsed.ok) throw new Error(parsed.error);
    expect(parsed.action).toEqual({ data: { start_index: 0, end_index: 1 }, kind: 'MCPToolAction' });
    const observation = await tool.execute(parsed.action, contextWith(events));
    expect(observation).toMatchObject({ is_error: false, tool_name: 'recall', kind: 'MCPToolObservation' });
    expect(Object.keys(observation).sort()).toEqual(['content', 'is_error', 'kind', 'tool_name']);
  });

  it('rejects arguments of the wrong type at parse time, naming the field', () => {
    const parsed = parseToolCall(
      { id: 'call_1', name: 'recall', arguments: '{"start_index": "three"}', origin: 'completion' },
      [createRecallTool()],
      { securityAnalyzerEnabled: false },
    );
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toContain('start_index');
  });

  it('throws typed errors the step loop shows the model: bad data, bad request, no conversation', async () => {
    const tool = createRecallTool();
    await expect(tool.execute({ data: { bogus: 1 }, kind: 'MCPToolAction' }, contextWith(events))).rejects.toThrow(
      ToolExecutionError,
    );
    await expect(tool.execute({ data: {}, kind: 'MCPToolAction' }, contextWith(events))).rejects.toThrow(
      InvalidRecallError,
    );
    await expect(tool.execute({ data: { query: 'a' }, kind: 'MCPToolAction' }, { workspace: '/tmp' })).rejects.toThrow(
      'recall only runs inside a conversation',
    );
  });

  it('honours its size limits', async () => {
    const tool = createRecallTool({ limits: { maxResults: 1 } });
    const observation = await tool.execute(
      { data: { start_index: 0, end_index: 1 }, kind: 'MCPToolAction' },
      contextWith(events),
    );
    expect((observation.content[0] as { text: string }).text).toContain('[truncated: 1 more event not shown');
  });

  it('is added when a condenser is configured, unless turned off or already present', () => {
    const names = (tools: { name: string }[]) => tools.map((tool) => tool.name);
    expect(names(withRecallTool([], {}))).toEqual([]);
    expect(names(withRecallTool([], { condenser: {} }))).toEqual(['recall']);
    expect(names(withRecallTool([], { condenser: {}, recall: false }))).toEqual([]);
    expect(names(withRecallTool([], { recall: true }))).toEqual(['recall']);
    expect(names(withRecallTool([createRecallTool()], { condenser: {} }))).toEqual(['recall']);
  });
});
