import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Observation } from '@x/events';
import { type FieldSets, payloadProblems } from '@x/events/testing';
import { describe, expect, it } from 'vitest';
import {
  applyPatchTool,
  createFileEditorTool,
  createTaskTrackerTool,
  createTerminalTool,
  finishTool,
  globTool,
  grepTool,
  type Tool,
  thinkTool,
} from '../src/index.js';

/**
 * Actions exactly as the reference writes them in an ActionEvent (every field with a default written, null ones
 * left out, `kind` last): a conversation the reference left with pending actions (waiting for confirmation, or cut
 * by a crash) continues in x by running them with x's tools, which must accept the reference's field sets and give
 * back observations its models accept.
 */
const sets: FieldSets = JSON.parse(
  readFileSync(new URL('../../events/test/__fixtures__/reference-field-sets.json', import.meta.url), 'utf8'),
);
const workspace = mkdtempSync(join(tmpdir(), 'x-reference-actions-'));
writeFileSync(join(workspace, 'a.py'), 'one\ntwo\nthree\n');
const files = new Map<string, string>();
const context = {
  workspace,
  conversationId: 'reference-actions',
  conversationFiles: {
    read: async (name: string) => files.get(name),
    write: async (name: string, text: string) => void files.set(name, text),
  },
};

const table: { label: string; tool: () => Tool; action: Record<string, unknown>; expectText: RegExp }[] = [
  {
    label: 'TerminalAction, every field',
    tool: () => createTerminalTool(),
    action: { command: 'echo hi', is_input: false, timeout: 30.0, reset: false, kind: 'TerminalAction' },
    expectText: /hi/,
  },
  {
    label: 'FileEditorAction view with view_range',
    tool: () => createFileEditorTool(),
    action: { command: 'view', path: join(workspace, 'a.py'), view_range: [1, 2], kind: 'FileEditorAction' },
    expectText: /two/,
  },
  {
    label: 'FileEditorAction str_replace',
    tool: () => createFileEditorTool(),
    action: {
      command: 'str_replace',
      path: join(workspace, 'a.py'),
      old_str: 'two',
      new_str: 'TWO',
      kind: 'FileEditorAction',
    },
    expectText: /TWO/,
  },
  {
    label: 'FileEditorAction insert',
    tool: () => createFileEditorTool(),
    action: {
      command: 'insert',
      path: join(workspace, 'a.py'),
      new_str: 'zero',
      insert_line: 0,
      kind: 'FileEditorAction',
    },
    expectText: /zero/,
  },
  {
    label: 'FileEditorAction create',
    tool: () => createFileEditorTool(),
    action: { command: 'create', path: join(workspace, 'b.py'), file_text: 'print(1)\n', kind: 'FileEditorAction' },
    expectText: /created/i,
  },
  {
    label: 'TaskTrackerAction plan, defaults written',
    tool: () => createTaskTrackerTool(),
    action: {
      command: 'plan',
      task_list: [
        { title: 'Fix', notes: '', status: 'todo' },
        { title: 'Test', notes: 'unit', status: 'in_progress' },
      ],
      kind: 'TaskTrackerAction',
    },
    expectText: /2/,
  },
  {
    label: 'TaskTrackerAction view',
    tool: () => createTaskTrackerTool(),
    action: { command: 'view', task_list: [], kind: 'TaskTrackerAction' },
    expectText: /Fix/,
  },
  {
    label: 'GlobAction without path',
    tool: () => globTool,
    action: { pattern: '*.py', kind: 'GlobAction' },
    expectText: /a\.py/,
  },
  {
    label: 'GrepAction with include',
    tool: () => grepTool,
    action: { pattern: 'print', path: workspace, include: '*.py', kind: 'GrepAction' },
    expectText: /b\.py/,
  },
  {
    label: 'ApplyPatchAction',
    tool: () => applyPatchTool,
    action: { patch: '*** Begin Patch\n*** Add File: c.txt\n+new\n*** End Patch', kind: 'ApplyPatchAction' },
    expectText: /c\.txt|Done/,
  },
  {
    label: 'ThinkAction',
    tool: () => thinkTool,
    action: { thought: 'hmm', kind: 'ThinkAction' },
    expectText: /logged/,
  },
  {
    label: 'FinishAction',
    tool: () => finishTool,
    action: { message: 'bye', kind: 'FinishAction' },
    expectText: /bye/,
  },
];

describe("x's tools run the reference's pending actions", () => {
  for (const row of table) {
    it(row.label, async () => {
      expect(payloadProblems(sets, row.action)).toEqual([]);
      const observation = JSON.parse(JSON.stringify(await row.tool().execute(row.action, context))) as Observation;
      expect(observation.is_error, JSON.stringify(observation.content)).toBe(false);
      const text = observation.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      expect(text).toMatch(row.expectText);
      expect(payloadProblems(sets, observation)).toEqual([]);
    });
  }
});
