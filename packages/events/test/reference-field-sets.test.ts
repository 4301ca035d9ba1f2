import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  type AnyEvent,
  type BuiltinEventKind,
  createEvent,
  eventToJson,
  parseEventJson,
  serializeEvent,
  withParent,
} from '../src/index.js';
import { type FieldSets, fieldSetProblems as problemsIn } from '../src/testing/index.js';

const referenceFieldSets: FieldSets = JSON.parse(
  readFileSync(join(import.meta.dirname, '__fixtures__', 'reference-field-sets.json'), 'utf8'),
);
const fieldSetProblems = (json: Record<string, unknown>) => problemsIn(referenceFieldSets, json);

const t = (text: string) => ({ type: 'text' as const, text });
const call = { id: 'call_1', name: 'finish', arguments: '{"message": "done"}', origin: 'completion' as const };

/**
 * One event of every built-in kind as x creates it: the minimal fields (so x's defaults are what is
 * written) and, for kinds with optional fields, a full variant. Tool payloads (terminal, file editor,
 * task tracker) are checked in @x/agent, where the tools live.
 */
const minimal: { [K in BuiltinEventKind]?: Record<string, unknown> } = {
  SystemPromptEvent: { system_prompt: t('sys'), tools: [] },
  MessageEvent: { source: 'user', llm_message: { role: 'user', content: [t('hi')] } },
  ActionEvent: {
    thought: [],
    action: { message: 'done', kind: 'FinishAction' },
    tool_name: 'finish',
    tool_call_id: 'call_1',
    tool_call: call,
    llm_response_id: 'r1',
  },
  ObservationEvent: {
    tool_name: 'finish',
    tool_call_id: 'call_1',
    action_id: 'a1',
    observation: { content: [t('done')], kind: 'FinishObservation' },
  },
  UserRejectObservation: { tool_name: 'finish', tool_call_id: 'call_1', action_id: 'a1' },
  AgentErrorEvent: { tool_name: 'nope', tool_call_id: 'call_1', error: 'Tool not found' },
  CondensationSummaryEvent: { summary: 's' },
  Condensation: { llm_response_id: 'r2' },
  CondensationRequest: {},
  ConversationStateUpdateEvent: { key: 'execution_status', value: 'running' },
  ConversationErrorEvent: { source: 'environment', code: 'MaxIterationsReached', detail: 'limit' },
  PauseEvent: {},
  InterruptEvent: {},
  TokenEvent: { source: 'agent', prompt_token_ids: [1], response_token_ids: [2] },
  HookExecutionEvent: { hook_event_type: 'PreToolUse', hook_command: 'true', success: true, exit_code: 0 },
  LLMCompletionLogEvent: { filename: 'a.json', log_data: '{}' },
  StreamingDeltaEvent: { content: 'x' },
  ACPToolCallEvent: { tool_call_id: 'c', title: 'run' },
};

const full: { [K in BuiltinEventKind]?: Record<string, unknown> } = {
  SystemPromptEvent: {
    system_prompt: t('sys'),
    dynamic_context: t('ctx'),
    tools: [
      {
        description: 'Finish',
        action_type: 'FinishAction',
        observation_type: 'FinishObservation',
        annotations: {
          title: 'finish',
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: false,
        },
        kind: 'FinishTool',
        title: 'finish',
      },
    ],
  },
  MessageEvent: {
    source: 'agent',
    llm_message: {
      role: 'assistant',
      content: [t('hi'), { type: 'image', image_urls: ['http://i'] }],
      reasoning_content: 'r',
      thinking_blocks: [
        { type: 'thinking', thinking: 't', signature: 's' },
        { type: 'redacted_thinking', data: 'd' },
      ],
      responses_reasoning_item: { id: 'rs', summary: ['s'], encrypted_content: 'e', status: 'completed' },
      tool_calls: [call],
    },
    llm_response_id: 'r1',
    activated_skills: ['a'],
    extended_content: [t('x')],
    sender: 'bot',
    critic_result: { score: 0.5, message: 'ok', metadata: { a: 1 } },
  },
  ActionEvent: {
    ...minimal.ActionEvent,
    thought: [t('because')],
    reasoning_content: 'r',
    summary: 'finish task',
    security_risk: 'LOW',
    critic_result: { score: 1, message: null },
  },
  UserRejectObservation: { ...minimal.UserRejectObservation, rejection_reason: 'no', rejection_source: 'hook' },
  AgentErrorEvent: {
    ...minimal.AgentErrorEvent,
    classification: { kind: 'agent_action', retryable: true, user_action: 'retry', error_id: 'e1' },
  },
  Condensation: { llm_response_id: 'r2', forgotten_event_ids: ['a', 'b'], summary: 's', summary_offset: 1 },
  HookExecutionEvent: {
    ...minimal.HookExecutionEvent,
    tool_name: 'terminal',
    blocked: true,
    stdout: 'o',
    stderr: 'e',
    reason: 'r',
    additional_context: 'c',
    error: 'x',
    action_id: 'a',
    message_id: 'm',
    hook_input: { a: 1 },
  },
};

describe("x writes exactly the reference's field sets", () => {
  it('covers every event kind of the reference', () => {
    const covered = Object.keys(minimal).sort();
    expect(covered).toEqual(Object.keys(referenceFieldSets.events).sort());
  });

  for (const [label, table] of [
    ['minimal', minimal],
    ['full', full],
  ] as const) {
    for (const [kind, fields] of Object.entries(table)) {
      it(`${kind} (${label})`, () => {
        const event = createEvent(kind as BuiltinEventKind, fields as never);
        const json = JSON.parse(serializeEvent(withParent(event, 'p1') as AnyEvent));
        expect(fieldSetProblems(json)).toEqual([]);
        // The last key is the computed `kind`, as pydantic writes it.
        expect(Object.keys(json).at(-1)).toBe('kind');
      });
    }
  }

  it('the checker accepts every event the reference wrote and rejects an extra or missing field', () => {
    const dir = join(import.meta.dirname, '__fixtures__', 'openhands');
    for (const name of readdirSync(dir).filter((entry) => !entry.includes('.'))) {
      for (const file of readdirSync(join(dir, name, 'events')).filter((entry) => entry.endsWith('.json'))) {
        const json = JSON.parse(readFileSync(join(dir, name, 'events', file), 'utf8'));
        expect(fieldSetProblems(json), file).toEqual([]);
      }
    }
    const event = eventToJson(parseEventJson(JSON.stringify({ ...minimalJson(), extra: 1 })));
    expect(fieldSetProblems(event)).toEqual(["PauseEvent.extra: not a field of the reference's model"]);
    const { source: _source, ...missing } = minimalJson();
    expect(fieldSetProblems(missing)).toEqual([
      'PauseEvent.source: missing (the reference always writes it, default included)',
    ]);
  });
});

function minimalJson(): Record<string, unknown> {
  return { id: '9d3c1a8e-0000-4000-8000-000000000001', timestamp: 't', source: 'user', kind: 'PauseEvent' };
}
