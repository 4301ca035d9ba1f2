import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Action, Observation } from '@x/events';
import { type FieldSets, payloadProblems } from '@x/events/testing';
import { describe, expect, it } from 'vitest';
import {
  applyPatchTool,
  createFileEditorTool,
  createInvokeSkillTool,
  createSkill,
  createTerminalTool,
  finishTool,
  globTool,
  grepTool,
  type Tool,
  thinkTool,
} from '../src/index.js';
import { parseToolCall } from '../src/tools/parse-tool-call.js';

// The field sets live with @x/events' fixtures (read from the reference's pydantic models).
const sets: FieldSets = JSON.parse(
  readFileSync(new URL('../../events/test/__fixtures__/reference-field-sets.json', import.meta.url), 'utf8'),
);
const workspace = mkdtempSync(join(tmpdir(), 'x-field-sets-'));
const skills = [createSkill({ name: 'release', content: 'Write the notes.' })];

/**
 * The Action and Observation JSON x's built-in tools write, against the reference's models. `known` lists
 * the differences a tool is allowed to have; every built-in tool now writes exactly the reference's field set,
 * so each row says `[]`, and a field that drifts fails here by name.
 */
const table: { label: string; tool: () => Tool; args: Record<string, unknown>; known: string[] }[] = [
  { label: 'finish', tool: () => finishTool, args: { message: 'done' }, known: [] },
  { label: 'think', tool: () => thinkTool, args: { thought: 'hmm' }, known: [] },
  {
    label: 'terminal',
    tool: () => createTerminalTool(),
    args: { command: 'echo hi' },
    known: [],
  },
  {
    label: 'file_editor create',
    tool: () => createFileEditorTool(),
    args: { command: 'create', path: join(workspace, 'a.txt'), file_text: 'hello\n' },
    known: [],
  },
  {
    label: 'file_editor view',
    tool: () => createFileEditorTool(),
    args: { command: 'view', path: join(workspace, 'a.txt') },
    known: [],
  },
  {
    label: 'apply_patch add and move',
    tool: () => applyPatchTool,
    args: {
      patch:
        '*** Begin Patch\n*** Add File: c.txt\n+new\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-hello\n+hi\n*** End Patch',
    },
    known: [],
  },
  { label: 'apply_patch error', tool: () => applyPatchTool, args: { patch: 'not a patch' }, known: [] },
  { label: 'glob', tool: () => globTool, args: { pattern: '*.txt' }, known: [] },
  { label: 'glob with path', tool: () => globTool, args: { pattern: '*.txt', path: workspace }, known: [] },
  { label: 'grep', tool: () => grepTool, args: { pattern: 'hello' }, known: [] },
  { label: 'grep with include', tool: () => grepTool, args: { pattern: 'h', include: '*.txt', path: '.' }, known: [] },
  { label: 'invoke_skill', tool: () => createInvokeSkillTool(() => skills), args: { name: 'release' }, known: [] },
  { label: 'invoke_skill unknown', tool: () => createInvokeSkillTool(() => skills), args: { name: 'x' }, known: [] },
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
