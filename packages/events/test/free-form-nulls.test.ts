import { describe, expect, it } from 'vitest';
import { parseEvent, parseEventJson, serializeEvent } from '../src/index.js';

/**
 * The reference writes events with `exclude_none`, which drops a model's own null fields but never a null inside a
 * value it types as free-form (`Any`, `dict[str, Any]`): those nulls are the caller's data. Each case below is the
 * shape the reference wrote for it (checked by running the reference's `model_dump_json(exclude_none=True)`).
 */
const base = { id: 'e1', timestamp: '2026-08-22T16:34:54.123456' };

/** The event written again from its object alone (as after a copy), not from the text it was read from. */
function rewritten(text: string): unknown {
  return JSON.parse(serializeEvent(structuredClone(parseEventJson(text))));
}

describe('nulls inside free-form values are kept', () => {
  it('an MCP tool call argument sent as null (MCPToolAction.data)', () => {
    const json = {
      ...base,
      source: 'agent',
      thought: [],
      thinking_blocks: [],
      action: { data: { path: null, depth: 2, filter: { since: null } }, kind: 'MCPToolAction' },
      tool_name: 'fetch_tree',
      tool_call_id: 'call_1',
      tool_call: { id: 'call_1', name: 'fetch_tree', arguments: '{"path": null, "depth": 2}', origin: 'completion' },
      llm_response_id: 'resp_1',
      security_risk: 'UNKNOWN',
      kind: 'ActionEvent',
    };
    const text = JSON.stringify(json);
    const event = parseEventJson(text);
    expect(event.kind === 'ActionEvent' && event.action).toEqual(json.action);
    expect(rewritten(text)).toEqual(json);
  });

  it('a tool schema default of null (ClientTool.input_schema) in the system prompt event', () => {
    const json = {
      ...base,
      source: 'agent',
      system_prompt: { cache_prompt: false, type: 'text', text: 'You are helpful.' },
      tools: [
        {
          description: 'Ask the user',
          action_type: 'ClientAction',
          observation_type: 'ClientToolObservation',
          input_schema: { type: 'object', properties: { hint: { type: ['string', 'null'], default: null } } },
          kind: 'ClientTool',
          title: 'ask_user',
        },
      ],
      kind: 'SystemPromptEvent',
    };
    expect(rewritten(JSON.stringify(json))).toEqual(json);
  });

  it("an ACP tool call's content items (ACPToolCallEvent.content is list[Any])", () => {
    const json = {
      ...base,
      source: 'agent',
      tool_call_id: 'acp_1',
      title: 'Read file',
      status: 'completed',
      content: [{ type: 'content', text: null }, null],
      is_error: false,
      kind: 'ACPToolCallEvent',
    };
    expect(rewritten(JSON.stringify(json))).toEqual(json);
  });

  it("but a message's content is a model list: its null fields are dropped as the reference drops them", () => {
    const event = parseEvent({
      ...base,
      source: 'user',
      llm_message: { role: 'user', content: [{ type: 'text', text: 'hi', cache_prompt: null }] },
      kind: 'MessageEvent',
    });
    expect(event.kind === 'MessageEvent' && event.llm_message.content[0]).not.toHaveProperty('cache_prompt', null);
  });
});
