import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Action, Observation } from '@x/events';
import { type FieldSets, payloadProblems } from '@x/events/testing';
import { describe, expect, it } from 'vitest';
import { createFileEditorTool, createTerminalTool, finishTool, type Tool, thinkTool } from '../src/index.js';
import { parseToolCall } from '../src/tools/parse-tool-call.js';

// The field sets live with @x/events' fixtures (read from the reference's pydantic models).
const sets: FieldSets = JSON.parse(
  readFileSync(new URL('../../events/test/__fixtures__/reference-field-sets.json', import.meta.url), 'utf8'),
);
const workspace = mkdtempSync(join(tmpdir(), 'x-field-sets-'));

/**
 * The Action and Observation JSON x's built-in tools write, against the reference's models. `known` lists
 * the differences that remain for a tool (its field set is being aligned in packages/agent/src/tools by
 * another change): when that lands, this test fails until the row says `[]`, so the table always states
 * exactly which kinds conform.
 */
const table: { label: string; tool: () => Tool; args: Record<string, unknown>; known: string[] }[] = [
  { label: 'finish', tool: () => finishTool, args: { message: 'done' }, known: [] },
  { label: 'think', tool: () => thinkTool, args: { thought: 'hmm' }, known: [] },
  {
    label: 'terminal',
    tool: () => createTerminalTool(),
    args: { command: 'echo hi' },
    known: [
      'TerminalAction.is_input: missing (the reference always writes it, default included)',
      'TerminalAction.reset: missing (the reference always writes it, default included)',
      "TerminalObservation.timed_out: not a field of the reference's model",
      'TerminalObservation.timeout: missing (the reference always writes it, default included)',
      'TerminalObservation.metadata: missing (the reference always writes it, default included)',
    ],
  },
  {
    label: 'file_editor create',
    tool: () => createFileEditorTool(),
    args: { command: 'create', path: join(workspace, 'a.txt'), file_text: 'hello\n' },
    known: ['FileEditorObservation.prev_exist: missing (the reference always writes it, default included)'],
  },
  {
    label: 'file_editor view',
    tool: () => createFileEditorTool(),
    args: { command: 'view', path: join(workspace, 'a.txt') },
    known: ['FileEditorObservation.prev_exist: missing (the reference always writes it, default included)'],
  },
];

describe("built-in tools write the reference's Action and Observation field sets", () => {
  for (const row of table) {
    it(row.label, async () => {
      const tool = row.tool();
      const parsed = parseToolCall(
        { id: 'call_1', name: tool.name, arguments: JSON.stringify(row.args), origin: 'completion' },
        [tool],
        { securityAnalyzerEnabled: false },
      );
      if (!parsed.ok) throw new Error(parsed.error);
      const action = JSON.parse(JSON.stringify(parsed.action as Action));
      const observation = JSON.parse(JSON.stringify((await tool.execute(parsed.action, { workspace })) as Observation));
      expect([...payloadProblems(sets, action), ...payloadProblems(sets, observation)]).toEqual(row.known);
    });
  }
});
