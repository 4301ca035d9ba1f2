import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseEvent } from '../json/parse-event.js';
import { registerEventKind, registerObservationKind } from '../registry/index.js';
import { eventToLlmMessage } from './event-to-llm-message.js';

const base = { id: 'e1', timestamp: '2026-01-01T00:00:00.000000' };
const t = (text: string) => ({ cache_prompt: false, type: 'text' as const, text });

/** Per-kind fixtures: event JSON as written to an event file → the Message the reference builds. */
const fixtures: { name: string; event: Record<string, unknown>; message: unknown }[] = [
  {
    name: 'SystemPromptEvent',
    event: { ...base, source: 'agent', system_prompt: t('sys'), tools: [], kind: 'SystemPromptEvent' },
    message: { role: 'system', content: [t('sys')], thinking_blocks: [] },
  },
  {
    name: 'SystemPromptEvent with dynamic_context',
    event: {
      ...base,
      source: 'agent',
      system_prompt: { ...t('sys'), cache_prompt: true },
      tools: [],
      dynamic_context: t('today is Monday'),
      kind: 'SystemPromptEvent',
    },
    message: {
      role: 'system',
      content: [{ ...t('sys'), cache_prompt: true }, t('today is Monday')],
      thinking_blocks: [],
    },
  },
  {
    name: 'MessageEvent with extended_content',
    event: {
      ...base,
      source: 'user',
      llm_message: { role: 'user', content: [t('hi'), { type: 'image', image_urls: ['http://x/a.png'] }] },
      extended_content: [t('<skill>')],
      kind: 'MessageEvent',
    },
    message: {
      role: 'user',
      content: [t('hi'), { cache_prompt: false, type: 'image', image_urls: ['http://x/a.png'] }, t('<skill>')],
      thinking_blocks: [],
    },
  },
  {
    name: 'agent MessageEvent keeps reasoning and thinking',
    event: {
      ...base,
      source: 'agent',
      llm_message: {
        role: 'assistant',
        content: [t('done')],
        reasoning_content: 'because',
        thinking_blocks: [{ type: 'thinking', thinking: 'x', signature: 's' }],
      },
      kind: 'MessageEvent',
    },
    message: {
      role: 'assistant',
      content: [t('done')],
      reasoning_content: 'because',
      thinking_blocks: [{ type: 'thinking', thinking: 'x', signature: 's' }],
    },
  },
  {
    name: 'ActionEvent',
    event: {
      ...base,
      source: 'agent',
      thought: [t('let me look')],
      reasoning_content: 'r',
      responses_reasoning_item: { id: 'rs_1', summary: ['s'] },
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      tool_call: { id: 'call_1', name: 'terminal', arguments: '{"command": "ls"}', origin: 'completion' },
      llm_response_id: 'resp1',
      kind: 'ActionEvent',
    },
    message: {
      role: 'assistant',
      content: [t('let me look')],
      tool_calls: [{ id: 'call_1', name: 'terminal', arguments: '{"command": "ls"}', origin: 'completion' }],
      reasoning_content: 'r',
      responses_reasoning_item: { id: 'rs_1', summary: ['s'] },
      thinking_blocks: [],
    },
  },
  {
    name: 'ObservationEvent',
    event: {
      ...base,
      source: 'environment',
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      action_id: 'a1',
      observation: { content: [t('file.txt')], is_error: false, kind: 'TerminalObservation' },
      extended_content: [t('rule')],
      kind: 'ObservationEvent',
    },
    message: {
      role: 'tool',
      content: [t('file.txt'), t('rule')],
      tool_call_id: 'call_1',
      name: 'terminal',
      thinking_blocks: [],
    },
  },
  {
    name: 'ObservationEvent with is_error',
    event: {
      ...base,
      source: 'environment',
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      action_id: 'a1',
      observation: { content: [t('boom')], is_error: true, kind: 'TerminalObservation' },
      kind: 'ObservationEvent',
    },
    message: {
      role: 'tool',
      content: [t('[An error occurred during execution.]\n'), t('boom')],
      tool_call_id: 'call_1',
      name: 'terminal',
      thinking_blocks: [],
    },
  },
  {
    name: 'UserRejectObservation',
    event: {
      ...base,
      source: 'environment',
      tool_name: 'terminal',
      tool_call_id: 'call_1',
      action_id: 'a1',
      rejection_reason: 'too risky',
      kind: 'UserRejectObservation',
    },
    message: {
      role: 'tool',
      content: [t('Action rejected: too risky')],
      tool_call_id: 'call_1',
      name: 'terminal',
      thinking_blocks: [],
    },
  },
  {
    name: 'AgentErrorEvent',
    event: {
      ...base,
      source: 'agent',
      tool_name: 'nope',
      tool_call_id: 'call_2',
      error: "Tool 'nope' not found",
      kind: 'AgentErrorEvent',
    },
    message: {
      role: 'tool',
      content: [t("Tool 'nope' not found")],
      tool_call_id: 'call_2',
      name: 'nope',
      thinking_blocks: [],
    },
  },
  {
    // Rendered by every reader, with no terminal tool created in the process (`x messages`, the server).
    name: 'TerminalObservation with its metadata lines',
    event: {
      ...base,
      source: 'environment',
      tool_name: 'terminal',
      tool_call_id: 'call_3',
      action_id: 'a3',
      observation: {
        content: [t('hello')],
        is_error: false,
        command: 'echo hello',
        exit_code: 0,
        timeout: false,
        metadata: {
          exit_code: 0,
          pid: -1,
          username: null,
          hostname: null,
          working_dir: '/workspace/project',
          py_interpreter_path: '/usr/bin/python3',
          prefix: '',
          suffix: '',
        },
        full_output_save_dir: null,
        kind: 'TerminalObservation',
      },
      kind: 'ObservationEvent',
    },
    message: {
      role: 'tool',
      content: [
        t(
          'hello\n[Current working directory: /workspace/project]\n[Python interpreter: /usr/bin/python3]\n[Command finished with exit code 0]',
        ),
      ],
      tool_call_id: 'call_3',
      name: 'terminal',
      thinking_blocks: [],
    },
  },
  {
    name: 'TerminalObservation of an error: the error header, then the output',
    event: {
      ...base,
      source: 'environment',
      tool_name: 'terminal',
      tool_call_id: 'call_4',
      action_id: 'a4',
      observation: {
        content: [t('boom')],
        is_error: true,
        command: 'false',
        exit_code: 1,
        timeout: false,
        metadata: { exit_code: 1, pid: -1, prefix: '', suffix: '\n[The command has no new output]' },
        kind: 'TerminalObservation',
      },
      kind: 'ObservationEvent',
    },
    message: {
      role: 'tool',
      content: [
        t('[An error occurred during execution.]\n'),
        t('boom\n[The command has no new output]\n[Command finished with exit code 1]'),
      ],
      tool_call_id: 'call_4',
      name: 'terminal',
      thinking_blocks: [],
    },
  },
  {
    name: 'CondensationSummaryEvent',
    event: { ...base, source: 'environment', summary: 'earlier: stuff', kind: 'CondensationSummaryEvent' },
    message: { role: 'user', content: [t('earlier: stuff')], thinking_blocks: [] },
  },
];

describe('eventToLlmMessage', () => {
  for (const fixture of fixtures) {
    it(`converts ${fixture.name}`, () => {
      const event = parseEvent(fixture.event);
      expect(eventToLlmMessage(event)).toEqual(fixture.message);
    });
  }

  it('defaults the rejection reason', () => {
    const event = parseEvent({
      ...base,
      tool_name: 'x',
      tool_call_id: 'c',
      action_id: 'a',
      kind: 'UserRejectObservation',
    });
    expect(eventToLlmMessage(event)?.content).toEqual([t('Action rejected: User rejected the action')]);
  });

  it('gives undefined for control and opaque events', () => {
    expect(eventToLlmMessage(parseEvent({ ...base, kind: 'PauseEvent' }))).toBeUndefined();
    expect(eventToLlmMessage(parseEvent({ ...base, llm_response_id: 'r', kind: 'Condensation' }))).toBeUndefined();
    expect(eventToLlmMessage(parseEvent({ ...base, kind: 'FutureEvent', x: 1 }))).toBeUndefined();
  });

  it('uses the toLlmContent hook of a registered observation kind', () => {
    registerObservationKind('ConvertTestObservation', z.object({ exit_code: z.number() }), {
      toLlmContent: (observation) => [t(`exit ${String(observation.exit_code)}`)],
    });
    const event = parseEvent({
      ...base,
      tool_name: 'terminal',
      tool_call_id: 'c',
      action_id: 'a',
      observation: { content: [t('ignored')], is_error: true, exit_code: 3, kind: 'ConvertTestObservation' },
      kind: 'ObservationEvent',
    });
    expect(eventToLlmMessage(event)?.content).toEqual([t('exit 3')]);
  });

  it('shares a terminal observation’s own content array when its hook gives back exactly its parts', () => {
    const observation = (content: unknown[], extra: Record<string, unknown> = {}) =>
      parseEvent({
        ...base,
        source: 'environment',
        tool_name: 'terminal',
        tool_call_id: 'call_1',
        action_id: 'a1',
        observation: { content, is_error: false, kind: 'TerminalObservation', ...extra },
        kind: 'ObservationEvent',
      }) as unknown as { observation: { content: unknown[] } };
    const plain = observation([t('one'), t('two')]);
    const message = eventToLlmMessage(plain as never)!;
    expect(message.content).toBe(plain.observation.content);
    // Other parts than the observation's (metadata lines, the error header) are a new array, never the observation's.
    const withMetadata = observation([t('out')], { metadata: { exit_code: 0 } });
    const rendered = eventToLlmMessage(withMetadata as never)!;
    expect(rendered.content).not.toBe(withMetadata.observation.content);
    expect(rendered.content).toEqual([t('out\n[Command finished with exit code 0]')]);
    // Every tool message has the same frozen empty thinking_blocks.
    expect(message.thinking_blocks).toBe(rendered.thinking_blocks);
    expect(Object.isFrozen(message.thinking_blocks)).toBe(true);
  });

  it('uses the toLlmMessage hook of a registered custom event kind', () => {
    registerEventKind('ConvertTestNoteEvent', zNoteEvent(), {
      toLlmMessage: (event) => ({
        role: 'user',
        content: [t(`note: ${String((event as unknown as { note: string }).note)}`)],
        thinking_blocks: [],
      }),
    });
    const event = parseEvent({ ...base, source: 'user', note: 'remember', kind: 'ConvertTestNoteEvent' });
    expect(eventToLlmMessage(event)).toEqual({ role: 'user', content: [t('note: remember')], thinking_blocks: [] });
  });
});

function zNoteEvent() {
  return z.object({
    id: z.string(),
    timestamp: z.string(),
    source: z.enum(['agent', 'user', 'environment', 'hook']),
    parent_id: z.string().optional(),
    note: z.string(),
    kind: z.literal('ConvertTestNoteEvent'),
  });
}
