import { createEvent, type MessageToolCall, parseEventJson, serializeEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createMcpTool } from '../mcp/mcp-tool.js';
import { parseToolCall } from './parse-tool-call.js';
import { createTerminalTool } from './terminal-tool.js';
import { defineTool } from './tool.js';

const options = { securityAnalyzerEnabled: false };
const request = defineTool({
  name: 'request',
  description: 'Send a request',
  parameters: z.object({ url: z.string(), headers: z.record(z.string(), z.unknown()) }),
  execute: () => ({ content: 'ok' }),
});
// Parsing never reaches the server: the connection is only used when the tool runs.
const mcpFetch = createMcpTool(
  { name: 'fetch', inputSchema: { type: 'object', properties: { url: { type: 'string' } } } },
  undefined as never,
);

function call(name: string, args: string): MessageToolCall {
  return { id: 'call_1', name, arguments: args, origin: 'completion' };
}

/** Every object in `value` has the plain prototype: no `__proto__` key became one. */
function prototypesUntouched(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value).every(prototypesUntouched);
}

describe('a __proto__ key in a tool call’s arguments', () => {
  it('inside a record argument is kept as a field of the action, never a prototype', () => {
    const result = parseToolCall(
      call('request', '{"url": "u", "headers": {"__proto__": {"x": 1}, "accept": "json"}}'),
      [request],
      options,
    );
    if (!result.ok) throw new Error(result.error);
    expect(JSON.stringify(result.action)).toBe(
      '{"url":"u","headers":{"__proto__":{"x":1},"accept":"json"},"kind":"RequestAction"}',
    );
    expect(prototypesUntouched(result.action)).toBe(true);
  });

  it('at the top of an MCP call reaches the action’s data, and the recorded event reads back byte-equal', () => {
    const args = '{"__proto__": {"x": 1}, "url": "u"}';
    const result = parseToolCall(call('fetch', args), [mcpFetch], options);
    if (!result.ok) throw new Error(result.error);
    expect(JSON.stringify(result.action)).toBe('{"data":{"url":"u","__proto__":{"x":1}},"kind":"MCPToolAction"}');
    expect(prototypesUntouched(result.action)).toBe(true);
    const event = createEvent('ActionEvent', {
      thought: [],
      action: result.action,
      tool_name: 'fetch',
      tool_call_id: 'call_1',
      tool_call: result.normalizedCall,
      llm_response_id: 'r1',
    });
    const text = serializeEvent(event);
    expect(text).toContain('"data":{"url":"u","__proto__":{"x":1}}');
    expect(serializeEvent(parseEventJson(text))).toBe(text);
    expect(JSON.stringify(parseEventJson(text))).toBe(text);
  });

  it('is refused by name by a tool whose arguments are a closed set', () => {
    const result = parseToolCall(
      call('terminal', '{"command": "ls", "__proto__": {"command": "rm"}}'),
      [createTerminalTool()],
      options,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain('__proto__\n  Extra inputs are not permitted');
    expect(result.error).not.toContain('\u0000');
  });
});
