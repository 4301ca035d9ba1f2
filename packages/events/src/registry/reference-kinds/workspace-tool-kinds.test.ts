import { describe, expect, it } from 'vitest';
import { eventToLlmMessage } from '../../convert/event-to-llm-message.js';
import { parseEvent, safeParseEvent } from '../../json/parse-event.js';

const base = { id: 'e1', timestamp: '2026-01-01T00:00:00.000000' };
const t = (text: string) => ({ cache_prompt: false, type: 'text' as const, text });

/** An ObservationEvent as the reference writes one for `tool`. */
function observationEvent(tool: string, observation: Record<string, unknown>): Record<string, unknown> {
  return {
    ...base,
    source: 'environment',
    tool_name: tool,
    tool_call_id: 'call_1',
    observation,
    action_id: 'a1',
    kind: 'ObservationEvent',
  };
}

/** Observations in the reference's shapes (every field written, as pydantic dumps them). */
const observations: [string, Record<string, unknown>][] = [
  [
    'apply_patch',
    {
      content: [t('Done!')],
      is_error: false,
      message: 'Done!',
      fuzz: 0,
      commit: {
        changes: { 'a.py': { type: 'update', old_content: 'x\n', new_content: 'y\n', move_path: null } },
      },
      kind: 'ApplyPatchObservation',
    },
  ],
  [
    'glob',
    {
      content: [t("Found 1 file(s) matching pattern '*.py' in '/ws':\n/ws/a.py")],
      is_error: false,
      files: ['/ws/a.py'],
      pattern: '*.py',
      search_path: '/ws',
      truncated: false,
      kind: 'GlobObservation',
    },
  ],
  [
    'grep',
    {
      content: [t("No files found containing pattern 'x' in directory '/ws'")],
      is_error: false,
      matches: [],
      pattern: 'x',
      search_path: '/ws',
      include_pattern: null,
      truncated: false,
      kind: 'GrepObservation',
    },
  ],
  [
    'invoke_skill',
    { content: [t('Unknown skill')], is_error: true, skill_name: 'nope', kind: 'InvokeSkillObservation' },
  ],
];

describe('apply_patch, glob, grep and invoke_skill kinds', () => {
  it.each(observations)('read the reference %s observation, and render it as the reference', (tool, observation) => {
    const event = parseEvent(observationEvent(tool, observation));
    // The reader drops nulls everywhere (a reference `null` reads as an absent field).
    const withoutNulls = JSON.parse(JSON.stringify(observation, (_key, value) => (value === null ? undefined : value)));
    expect((event as { observation: unknown }).observation).toEqual(withoutNulls);
    const header = observation.is_error ? [t('[An error occurred during execution.]\n')] : [];
    expect(eventToLlmMessage(event)).toEqual({
      role: 'tool',
      content: [...header, ...(observation.content as unknown[])],
      tool_call_id: 'call_1',
      name: tool,
      thinking_blocks: [],
    });
  });

  it('refuse observations and actions whose fields have the wrong types, naming the field', () => {
    const bad = safeParseEvent(
      observationEvent('glob', {
        content: [],
        is_error: false,
        files: 'a.py',
        pattern: '*',
        search_path: '/',
        kind: 'GlobObservation',
      }),
    );
    expect(bad.success).toBe(false);
    expect(JSON.stringify(bad)).toContain('files');
    const action = safeParseEvent({
      ...base,
      source: 'agent',
      thought: [],
      action: { patch: 42, kind: 'ApplyPatchAction' },
      tool_name: 'apply_patch',
      tool_call_id: 'call_1',
      tool_call: { id: 'call_1', name: 'apply_patch', arguments: '{}', origin: 'completion' },
      llm_response_id: 'r1',
      kind: 'ActionEvent',
    });
    expect(action.success).toBe(false);
    expect(JSON.stringify(action)).toContain('patch');
  });
});
