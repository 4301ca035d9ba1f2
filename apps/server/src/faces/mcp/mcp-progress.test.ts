import { parseEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { progressMessageOf } from './mcp-progress.js';
import { mcpToolDescriptions } from './mcp-tools.js';

const base = { timestamp: '2026-01-01T00:00:00.000000' };
const t = (text: string) => ({ cache_prompt: false, type: 'text' as const, text });

function action(tool: string, payload: Record<string, unknown>) {
  return parseEvent({
    ...base,
    id: 'a1',
    source: 'agent',
    thought: [],
    action: payload,
    tool_name: tool,
    tool_call_id: 'call_1',
    tool_call: { id: 'call_1', name: tool, arguments: '{}', origin: 'completion' },
    llm_response_id: 'r1',
    kind: 'ActionEvent',
  });
}

describe('progressMessageOf', () => {
  it('names the tool the agent calls, with its command or message', () => {
    expect(progressMessageOf(action('terminal', { command: 'ls -la', kind: 'TerminalAction' }))).toBe(
      'agent calls terminal: ls -la',
    );
    expect(progressMessageOf(action('finish', { message: 'Done.', kind: 'FinishAction' }))).toBe(
      'agent calls finish: Done.',
    );
    expect(progressMessageOf(action('think', { thought: 'hm', kind: 'ThinkAction' }))).toBe('agent calls think');
  });

  it('gives messages on one clipped line, and status changes', () => {
    const long = parseEvent({
      ...base,
      id: 'm1',
      source: 'agent',
      llm_message: { role: 'assistant', content: [t(`line one\nline two ${'x'.repeat(200)}`)] },
      kind: 'MessageEvent',
    });
    const text = progressMessageOf(long);
    expect(text.startsWith('agent says: line one line two x')).toBe(true);
    expect(text).toHaveLength(120);
    expect(text.endsWith('…')).toBe(true);
    const status = parseEvent({
      ...base,
      id: 's1',
      source: 'environment',
      key: 'execution_status',
      value: 'finished',
      kind: 'ConversationStateUpdateEvent',
    });
    expect(progressMessageOf(status)).toBe('status: finished');
  });
});

describe('mcpToolDescriptions', () => {
  it('describes seven tools with object input schemas; start_conversation takes a create body only where the host does', () => {
    const server = mcpToolDescriptions({ acceptsCreateBody: true });
    expect(server.map((tool) => tool.name)).toEqual([
      'start_conversation',
      'send_message',
      'run',
      'interrupt',
      'get_conversation',
      'list_conversations',
      'confirm_actions',
    ]);
    for (const tool of server) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema).not.toHaveProperty('$schema');
    }
    const start = (tools: typeof server) => tools.find((tool) => tool.name === 'start_conversation')?.inputSchema;
    expect(Object.keys(start(server)?.properties as object)).toEqual(['message', 'conversation']);
    expect(Object.keys(start(mcpToolDescriptions({ acceptsCreateBody: false }))?.properties as object)).toEqual([
      'message',
    ]);
    expect(server.find((tool) => tool.name === 'confirm_actions')?.inputSchema.required).toEqual([
      'conversation_id',
      'approve',
    ]);
  });
});
