import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  eventToJson,
  eventToLlmMessage,
  parseEvent,
  parseEventJson,
  serializeEvent,
  toChatCompletionsMessages,
  toResponsesInput,
} from '../src/index.js';
import { type FieldSets, fieldSetProblems } from '../src/testing/index.js';

/**
 * Every event kind of the reference with all of its optional fields set, as its writer emits them (nulls left out,
 * `kind` last), and the same events as its REST API returns them (every unset optional field an explicit `null`).
 * Both parse to the same event; the file form is written back byte for byte and has exactly the reference's fields.
 */
const sets: FieldSets = JSON.parse(
  readFileSync(join(import.meta.dirname, '__fixtures__', 'reference-field-sets.json'), 'utf8'),
);
const t = (text: string) => ({ cache_prompt: false, type: 'text', text });
const base = (n: number, source: string) => ({
  id: `0c6bdf0d-7796-468d-9bd2-1b6aec89b7${String(n).padStart(2, '0')}`,
  timestamp: '2026-08-22T16:34:54',
  source,
  parent_id: '38c115d6-9a1f-4aa5-b6ea-fa2880e6b5d0',
});
const reasoningItem = {
  id: 'rs_1',
  summary: ['Plan the edit'],
  content: ['step one'],
  encrypted_content: 'gAAAAABenc',
  status: 'completed',
};

const full: Record<string, Record<string, unknown>> = {
  SystemPromptEvent: {
    ...base(0, 'agent'),
    system_prompt: t('You are OpenHands agent.'),
    tools: [
      {
        description: 'Fetch a URL',
        action_type: 'MCPToolAction',
        observation_type: 'MCPToolObservation',
        annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
        meta: { server: 'fetch' },
        mcp_tool: {
          name: 'fetch',
          description: 'Fetch a URL',
          inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] },
        },
        kind: 'MCPToolDefinition',
        title: 'fetch',
      },
    ],
    dynamic_context: t('<RUNTIME/>'),
    kind: 'SystemPromptEvent',
  },
  MessageEvent: {
    ...base(1, 'agent'),
    llm_message: {
      role: 'assistant',
      content: [
        t('Done'),
        { cache_prompt: true, type: 'image', image_urls: ['https://x/a.png', 'data:image/png;base64,AA=='] },
      ],
      tool_calls: [{ id: 'call_1', responses_item_id: 'fc_1', name: 'finish', arguments: '{}', origin: 'responses' }],
      tool_call_id: 'call_0',
      name: 'finish',
      reasoning_content: 'why',
      thinking_blocks: [
        { type: 'thinking', thinking: 'hmm', signature: 'sig' },
        { type: 'redacted_thinking', data: 'xyz' },
      ],
      responses_reasoning_item: reasoningItem,
    },
    llm_response_id: 'resp_1',
    activated_skills: ['git'],
    extended_content: [t('<skill/>')],
    sender: 'planner',
    critic_result: { score: 0.5, message: 'ok', metadata: { event_ids: ['a'] } },
    kind: 'MessageEvent',
  },
  ActionEvent: {
    ...base(2, 'agent'),
    thought: [t('think')],
    reasoning_content: 'r',
    thinking_blocks: [{ type: 'thinking', thinking: 't', signature: 's' }],
    responses_reasoning_item: reasoningItem,
    action: { data: { url: 'https://x' }, kind: 'MCPToolAction' },
    tool_name: 'fetch',
    tool_call_id: 'call_1',
    tool_call: {
      id: 'call_1',
      responses_item_id: 'fc_1',
      name: 'fetch',
      arguments: '{"url": "https://x"}',
      origin: 'responses',
    },
    llm_response_id: 'resp_1',
    security_risk: 'MEDIUM',
    critic_result: { score: 1, message: 'fine' },
    summary: 'fetch a page',
    kind: 'ActionEvent',
  },
  ObservationEvent: {
    ...base(3, 'environment'),
    tool_name: 'fetch',
    tool_call_id: 'call_1',
    observation: {
      content: [t("[Tool 'fetch' executed.]"), t('<html/>')],
      is_error: true,
      tool_name: 'fetch',
      kind: 'MCPToolObservation',
    },
    action_id: base(2, '').id,
    extended_content: [t('<rule/>')],
    kind: 'ObservationEvent',
  },
  UserRejectObservation: {
    ...base(4, 'environment'),
    tool_name: 'fetch',
    tool_call_id: 'call_1',
    rejection_reason: 'no',
    rejection_source: 'hook',
    action_id: base(2, '').id,
    kind: 'UserRejectObservation',
  },
  AgentErrorEvent: {
    ...base(5, 'agent'),
    tool_name: 'fetch',
    tool_call_id: 'call_1',
    error: 'boom',
    classification: { kind: 'internal', retryable: false, user_action: 'none', error_id: 'e-1' },
    kind: 'AgentErrorEvent',
  },
  Condensation: {
    ...base(6, 'environment'),
    forgotten_event_ids: ['a', 'b'],
    summary: 'so far',
    summary_offset: 1,
    llm_response_id: 'resp_2',
    kind: 'Condensation',
  },
  CondensationRequest: { ...base(7, 'environment'), kind: 'CondensationRequest' },
  ConversationStateUpdateEvent: {
    ...base(8, 'environment'),
    key: 'confirmation_policy',
    value: { threshold: 'MEDIUM', confirm_unknown: false, kind: 'ConfirmRisky' },
    kind: 'ConversationStateUpdateEvent',
  },
  ConversationErrorEvent: {
    ...base(9, 'environment'),
    code: 'MaxBudgetReached',
    detail: 'over',
    classification: { kind: 'quota', retryable: false, user_action: 'settings', error_id: 'e-2' },
    kind: 'ConversationErrorEvent',
  },
  PauseEvent: { ...base(10, 'user'), kind: 'PauseEvent' },
  InterruptEvent: { ...base(11, 'user'), kind: 'InterruptEvent' },
  TokenEvent: { ...base(12, 'agent'), prompt_token_ids: [1, 2], response_token_ids: [3], kind: 'TokenEvent' },
  HookExecutionEvent: {
    ...base(13, 'hook'),
    hook_event_type: 'UserPromptSubmit',
    hook_command: 'check.sh',
    tool_name: 'terminal',
    success: false,
    blocked: true,
    exit_code: 2,
    stdout: 'out',
    stderr: 'err',
    reason: 'blocked',
    additional_context: 'ctx',
    error: 'failed',
    action_id: 'a1',
    message_id: 'm1',
    hook_input: { prompt: 'hi' },
    kind: 'HookExecutionEvent',
  },
  LLMCompletionLogEvent: {
    ...base(14, 'environment'),
    filename: 'log.json',
    log_data: '{"a": 1}',
    model_name: 'gpt-4o',
    usage_id: 'agent',
    kind: 'LLMCompletionLogEvent',
  },
  StreamingDeltaEvent: { ...base(15, 'agent'), content: 'He', reasoning_content: 'th', kind: 'StreamingDeltaEvent' },
  ACPToolCallEvent: {
    ...base(16, 'agent'),
    tool_call_id: 'exec_1',
    title: 'Run tests',
    status: 'completed',
    tool_kind: 'execute',
    raw_input: { command: 'pytest' },
    raw_output: 0,
    content: [{ type: 'diff', path: 'a.py', oldText: 'a', newText: 'b' }],
    is_error: false,
    kind: 'ACPToolCallEvent',
  },
};

/** The optional fields of each kind (those the reference writes only when set). */
function optionalFields(kind: string): string[] {
  return Object.entries(sets.events[kind] ?? {})
    .filter(([, status]) => status === 'optional')
    .map(([field]) => field);
}

describe('every reference event kind, all optional fields set', () => {
  for (const [kind, json] of Object.entries(full)) {
    it(kind, () => {
      expect(fieldSetProblems(sets, json)).toEqual([]);
      const text = JSON.stringify(json);
      const event = parseEventJson(text);
      expect(event.kind).toBe(kind);
      expect(serializeEvent(event)).toBe(text);
      // The REST form: the same event with explicit nulls for every optional field left unset.
      const withNulls = { ...json };
      for (const field of optionalFields(kind)) if (!(field in withNulls)) withNulls[field] = null;
      expect(eventToJson(parseEvent(withNulls))).toEqual(eventToJson(event));
    });
  }
});

describe('every reference event kind, all optional fields absent or null', () => {
  for (const [kind, json] of Object.entries(full)) {
    it(kind, () => {
      const minimal = { ...json };
      const nulls = { ...json };
      for (const field of optionalFields(kind)) {
        delete minimal[field];
        nulls[field] = null;
      }
      const text = JSON.stringify(minimal);
      const event = parseEventJson(text);
      expect(serializeEvent(event)).toBe(text);
      expect(eventToJson(parseEvent(nulls))).toEqual(eventToJson(event));
    });
  }
});

describe('LLM messages of the full events', () => {
  it('a MessageEvent keeps every Message field and appends extended_content', () => {
    const message = eventToLlmMessage(parseEvent(full.MessageEvent));
    const llm = full.MessageEvent?.llm_message as Record<string, unknown>;
    expect(message).toEqual({ ...llm, content: [...(llm.content as unknown[]), t('<skill/>')] });
  });

  it('Responses input of the action echoes the reasoning item and the function_call id', () => {
    const message = eventToLlmMessage(parseEvent(full.ActionEvent));
    expect(message && toResponsesInput([message]).input).toEqual([
      {
        type: 'reasoning',
        id: 'rs_1',
        summary: [{ type: 'summary_text', text: 'Plan the edit' }],
        content: [{ type: 'reasoning_text', text: 'step one' }],
        encrypted_content: 'gAAAAABenc',
        status: 'completed',
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'think' }] },
      { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'fetch', arguments: '{"url": "https://x"}' },
    ]);
  });

  it('the MCP observation with is_error gets the error header, then content and extended_content', () => {
    const message = eventToLlmMessage(parseEvent(full.ObservationEvent));
    expect(message && toChatCompletionsMessages([message])).toEqual([
      {
        role: 'tool',
        content: [
          { type: 'text', text: '[An error occurred during execution.]\n' },
          { type: 'text', text: "[Tool 'fetch' executed.]" },
          { type: 'text', text: '<html/>' },
          { type: 'text', text: '<rule/>' },
        ],
        tool_call_id: 'call_1',
        name: 'fetch',
      },
    ]);
  });
});

describe('deprecated keys in files written before they were removed', () => {
  it('TextContent.enable_truncation and Message.cache_enabled & co. are read, dropped from the LLM message, kept on disk', () => {
    const old = (text: string) => ({ cache_prompt: false, type: 'text', text, enable_truncation: true });
    const json = {
      ...base(20, 'user'),
      llm_message: {
        role: 'user',
        content: [old('hello')],
        cache_enabled: true,
        vision_enabled: false,
        function_calling_enabled: true,
        force_string_serializer: false,
        send_reasoning_content: false,
        thinking_blocks: [],
      },
      activated_skills: [],
      extended_content: [old('<skill/>')],
      kind: 'MessageEvent',
    };
    const text = JSON.stringify(json);
    const event = parseEventJson(text);
    expect(serializeEvent(event)).toBe(text);
    expect(eventToLlmMessage(event)).toEqual({
      role: 'user',
      content: [t('hello'), t('<skill/>')],
      thinking_blocks: [],
    });
    // What x writes of it when it builds a new event from it carries none of them (the reference reads either).
    expect(fieldSetProblems(sets, eventToJson(parseEvent(json)))).toEqual([]);
  });
});
