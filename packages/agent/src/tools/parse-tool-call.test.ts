import type { MessageToolCall } from '@x/events';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFileEditorTool } from './file-editor-tool.js';
import { finishTool } from './finish-tool.js';
import { parseToolCall } from './parse-tool-call.js';
import { createTerminalTool } from './terminal-tool.js';
import { thinkTool } from './think-tool.js';
import { defineTool, type Tool } from './tool.js';

const terminal = createTerminalTool();
const fileEditor = createFileEditorTool();
const tools: Tool[] = [terminal, fileEditor, finishTool, thinkTool];
const analyzer = { securityAnalyzerEnabled: true };
const noAnalyzer = { securityAnalyzerEnabled: false };

function call(name: string, args: string | Record<string, unknown>): MessageToolCall {
  return {
    id: 'call_1',
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
    origin: 'completion',
  };
}

function parseOk(c: MessageToolCall, list: readonly Tool[] = tools, options = analyzer) {
  const result = parseToolCall(c, list, options);
  if (!result.ok) throw new Error(`expected a valid call, got: ${result.error}`);
  return result;
}

function parseErr(c: MessageToolCall, list: readonly Tool[] = tools, options = analyzer) {
  const result = parseToolCall(c, list, options);
  if (result.ok) throw new Error('expected an invalid call');
  return result;
}

describe('parseToolCall: valid calls', () => {
  it('builds the action with kind last and keeps meta fields in the normalized call', () => {
    const result = parseOk(call('terminal', { command: 'ls', security_risk: 'LOW', summary: 'list files' }));
    expect(result.tool).toBe(terminal);
    expect(result.action).toEqual({ command: 'ls', is_input: false, reset: false, kind: 'TerminalAction' });
    expect(Object.keys(result.action)).toEqual(['command', 'is_input', 'reset', 'kind']);
    expect(result.normalizedCall).toEqual({
      id: 'call_1',
      name: 'terminal',
      arguments: '{"command": "ls", "security_risk": "LOW", "summary": "list files"}',
      origin: 'completion',
    });
    expect(result.securityRisk).toBe('LOW');
    expect(result.summary).toBe('list files');
  });

  it('re-serializes arguments Python-style with non-ASCII escaped', () => {
    const result = parseOk(call('finish', { message: 'héllo ✓' }));
    expect(result.normalizedCall.arguments).toBe('{"message": "h\\u00e9llo \\u2713"}');
  });

  it('escapes raw control characters and parses again', () => {
    const raw = '{"command": "echo a\nb\tc"}';
    const result = parseOk(call('terminal', raw));
    expect(result.action).toEqual({ command: 'echo a\nb\tc', is_input: false, reset: false, kind: 'TerminalAction' });
    expect(result.normalizedCall.arguments).toBe('{"command": "echo a\\nb\\tc"}');
  });

  it('treats non-object JSON as no arguments', () => {
    const noParameters = defineTool({
      name: 'status',
      description: 'Status',
      parameters: z.object({}),
      execute: () => ({ content: 'ok' }),
    });
    const result = parseOk(call('status', '[1, 2]'), [noParameters]);
    expect(result.action).toEqual({ kind: 'StatusAction' });
    expect(result.normalizedCall.arguments).toBe('{}');
    const error = parseErr(call('finish', '"text"'));
    expect(error.error.endsWith('Parameters provided: []')).toBe(true);
  });

  it('renames security_risk typos and drops null-valued keys', () => {
    for (const typo of ['security_rort', 'securtiy_risk', 'security_riks']) {
      const result = parseOk(call('terminal', { command: 'ls', [typo]: 'HIGH', timeout: null }));
      expect(result.securityRisk).toBe('HIGH');
      expect(result.normalizedCall.arguments).toBe('{"command": "ls", "security_risk": "HIGH"}');
    }
  });

  it('renames a typo with no null beside it, and drops a null with no typo beside it', () => {
    const renamed = parseOk(call('terminal', { command: 'ls', security_riks: 'LOW' }));
    expect(renamed.securityRisk).toBe('LOW');
    const dropped = parseOk(call('terminal', { command: 'ls', timeout: null }));
    expect(dropped.normalizedCall.arguments).toBe('{"command": "ls"}');
  });

  it('finds a tool added to a list that is not frozen, after the list was first used', () => {
    const tools: Tool[] = [terminal];
    expect(parseErr(call('status', {}), tools).error).toContain("Tool 'status' not found");
    tools.push(
      defineTool({ name: 'status', description: 's', parameters: z.object({}), execute: () => ({ content: '' }) }),
    );
    expect(parseOk(call('status', {}), tools).tool.name).toBe('status');
  });

  it('keeps a registered tool name even when it is an alias', () => {
    const bash = defineTool({
      name: 'bash',
      description: 'own bash',
      parameters: z.object({ script: z.string() }),
      execute: () => ({ content: 'ok' }),
    });
    const result = parseOk(call('bash', { script: 'x' }), [bash, terminal]);
    expect(result.tool).toBe(bash);
  });
});

describe('parseToolCall: name normalization', () => {
  it.each(['bash', 'command', 'execute', 'execute_bash'])('maps %s to terminal', (name) => {
    const result = parseOk(call(name, { command: 'ls -la' }));
    expect(result.tool.name).toBe('terminal');
    expect(result.normalizedCall.name).toBe('terminal');
    expect(result.action).toEqual({ command: 'ls -la', is_input: false, reset: false, kind: 'TerminalAction' });
  });

  it('prefixes git and reset commands and keeps only meta fields', () => {
    expect(parseOk(call('git', { command: 'status', summary: 's', extra: 1 })).action).toEqual({
      command: 'git status',
      is_input: false,
      reset: false,
      kind: 'TerminalAction',
    });
    expect(parseOk(call('git', { command: 'git log' })).action.command).toBe('git log');
    expect(parseOk(call('git', { command: 'github status' })).action.command).toBe('git github status');
    expect(parseOk(call('git', {})).action.command).toBe('git');
    expect(parseOk(call('reset', { command: 'clear' })).action.command).toBe('reset clear');
    expect(parseOk(call('git', { command: 'status', summary: 's', extra: 1 })).normalizedCall.arguments).toBe(
      '{"summary": "s", "command": "git status"}',
    );
  });

  it.each(['str_replace', 'str_replace_editor'])('maps %s to file_editor', (name) => {
    const result = parseOk(call(name, { command: 'view', path: 'a.txt' }));
    expect(result.tool.name).toBe('file_editor');
  });

  it('strips trailing garbage after the leading identifier', () => {
    expect(parseOk(call('terminal</function>', { command: 'ls' })).tool.name).toBe('terminal');
    expect(parseOk(call('str_replace </parameter', { path: 'a.txt' })).tool.name).toBe('file_editor');
  });

  it('turns bare find/git/ls/pwd without arguments into terminal commands', () => {
    for (const name of ['find', 'ls', 'pwd']) {
      expect(parseOk(call(name, {})).action).toEqual({
        command: name,
        is_input: false,
        reset: false,
        kind: 'TerminalAction',
      });
    }
    expect(parseErr(call('ls', { path: '.' })).error).toBe(
      "Tool 'ls' not found. Available: ['terminal', 'file_editor', 'finish', 'think']",
    );
  });

  it('turns a structured grep into a quoted grep command', () => {
    const result = parseOk(call('grep', { pattern: "it's", path: 'src', include: '*.ts', summary: 'find' }));
    expect(result.action.command).toBe(`grep -R -I -n -i 'it'"'"'s' src '--include=*.ts'`);
    expect(result.summary).toBe('find');
    expect(parseOk(call('grep', { pattern: 'x' })).action.command).toBe('grep -R -I -n -i x .');
    expect(parseErr(call('grep', { pattern: ' ' })).error).toContain("Tool 'grep' not found");
  });

  it('does not rewrite shell names when no terminal tool is registered', () => {
    expect(parseErr(call('pwd', {}), [finishTool]).error).toBe("Tool 'pwd' not found. Available: ['finish']");
  });

  it('infers the file_editor command from the arguments, command first', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ path: 'a', old_str: 'x', new_str: 'y' }, 'str_replace'],
      [{ path: 'a', insert_line: 1, new_str: 'y' }, 'insert'],
      [{ path: 'a', file_text: 'y' }, 'create'],
      [{ path: 'a' }, 'view'],
    ];
    for (const [args, command] of cases) {
      const result = parseOk(call('file_editor', args));
      expect(result.action.command).toBe(command);
      expect(Object.keys(result.action)[0]).toBe('command');
    }
  });
});

describe('parseToolCall: errors', () => {
  it('reports an unknown tool with the available names', () => {
    const result = parseErr(call('browse', { url: 'x' }));
    expect(result.error).toBe("Tool 'browse' not found. Available: ['terminal', 'file_editor', 'finish', 'think']");
    expect(result.errorToolName).toBe('browse');
    expect(result.actionToolCall).toEqual(call('browse', { url: 'x' }));
  });

  it('names the normalized tool in "not found" when the alias target is not registered', () => {
    const result = parseErr(call('bash</x>', { command: 'ls' }), [finishTool]);
    expect(result.error).toBe("Tool 'bash</x>' not found. Available: ['finish']");
  });

  it('reports unparseable JSON and replaces the recorded arguments', () => {
    const result = parseErr(call('terminal', '{"command": "ls"'));
    expect(result.error).toMatch(/^Error validating tool 'terminal': .+\. Arguments: unparseable JSON$/s);
    expect(result.errorToolName).toBe('terminal');
    expect(JSON.parse(result.actionToolCall.arguments)).toEqual({
      _openhands_malformed_tool_call: true,
      error: result.error,
    });
    expect(result.actionToolCall.arguments.startsWith('{"_openhands_malformed_tool_call": true, "error": ')).toBe(true);
    expect(result.actionToolCall.name).toBe('terminal');
  });

  it('records arguments that needed control-character repair as malformed', () => {
    const result = parseErr(call('finish', '{"msg": "a\nb"}'));
    expect(result.error).toContain("Parameters provided: ['msg']");
    expect(JSON.parse(result.actionToolCall.arguments)._openhands_malformed_tool_call).toBe(true);
  });

  it('keeps valid-JSON arguments on the recorded call', () => {
    const result = parseErr(call('finish', { text: 'x' }));
    expect(result.actionToolCall.arguments).toBe('{"text":"x"}');
  });

  it('names failing fields, unknown fields and the parameters provided', () => {
    const result = parseErr(call('finish', { text: 'x', summary: 'done' }));
    expect(result.error).toBe(
      "Error validating tool 'finish': 2 validation errors for FinishAction\n" +
        'message\n  Invalid input: expected string, received undefined\n' +
        "text\n  Extra inputs are not permitted. Parameters provided: ['text']",
    );
    expect(result.errorToolName).toBe('finish');
  });

  it('uses the requested name for validation errors of an aliased call', () => {
    const result = parseErr(call('bash', { command: 5 }));
    expect(result.error).toMatch(/^Error validating tool 'bash': 1 validation error for TerminalAction\ncommand\n/);
    expect(result.error.endsWith("Parameters provided: ['command']")).toBe(true);
    expect(result.errorToolName).toBe('bash');
  });

  it('reports a file_editor call whose command cannot be inferred under the alias target', () => {
    const result = parseErr(call('str_replace_editor', { foo: 1 }));
    expect(result.error).toBe(
      "Error validating tool 'file_editor': Cannot infer 'command' for tool 'file_editor' from empty arguments " +
        "{'foo': 1}. Expected one of: str_replace, insert, create, view with appropriate arguments " +
        // The doubled period is the reference's: its message ends with one and the wrapper adds another.
        "(e.g., old_str for str_replace, path for view).. Parameters provided: ['foo']",
    );
    expect(result.errorToolName).toBe('file_editor');
    expect(result.actionToolCall.name).toBe('str_replace_editor');
    expect(parseErr(call('file_editor', {})).error).toContain('from empty arguments {}.');
  });

  it('rejects an invalid security_risk only when an analyzer is enabled', () => {
    const result = parseErr(call('terminal', { command: 'ls', security_risk: 'EXTREME' }));
    expect(result.error).toBe(
      "Error validating tool 'terminal': 'EXTREME' is not a valid SecurityRisk. Parameters provided: ['command']",
    );
    expect(parseOk(call('terminal', { command: 'ls', security_risk: 'EXTREME' }), tools, noAnalyzer).securityRisk).toBe(
      'UNKNOWN',
    );
  });
});

describe('parseToolCall: security_risk and summary', () => {
  it('is UNKNOWN for read-only tools, without an analyzer, or when absent', () => {
    expect(parseOk(call('think', { thought: 't', security_risk: 'HIGH' })).securityRisk).toBe('UNKNOWN');
    expect(parseOk(call('terminal', { command: 'ls', security_risk: 'HIGH' }), tools, noAnalyzer).securityRisk).toBe(
      'UNKNOWN',
    );
    expect(parseOk(call('terminal', { command: 'ls' })).securityRisk).toBe('UNKNOWN');
  });

  it('synthesizes a summary from the remaining arguments when none is usable', () => {
    expect(parseOk(call('terminal', { command: 'ls', security_risk: 'LOW' })).summary).toBe(
      'terminal: {"command": "ls"}',
    );
    expect(parseOk(call('terminal', { command: 'ls', summary: '   ' })).summary).toBe('terminal: {"command": "ls"}');
    expect(parseOk(call('terminal', { command: 'ls', summary: 3 })).summary).toBe('terminal: {"command": "ls"}');
    expect(parseOk(call('terminal', { command: 'ls', summary: ' keep spaces ' })).summary).toBe(' keep spaces ');
  });

  it('reads but keeps a summary the tool declares itself', () => {
    const ticket = defineTool({
      name: 'create_ticket',
      description: 'Create a ticket',
      parameters: z.object({ summary: z.string(), body: z.string() }),
      execute: () => ({ content: 'ok' }),
    });
    const result = parseOk(call('create_ticket', { summary: ' Fix login ', body: 'b' }), [ticket]);
    expect(result.summary).toBe('Fix login');
    expect(result.action).toEqual({ summary: ' Fix login ', body: 'b', kind: 'CreateTicketAction' });
    const fallback = parseErr(call('create_ticket', { body: 'b' }), [ticket]);
    expect(fallback.error).toContain('summary\n');
  });
});

describe('parseToolCall: argument repair', () => {
  it('decodes list fields sent as JSON text, also with trailing garbage', () => {
    expect(
      parseOk(call('file_editor', { command: 'view', path: 'a', view_range: '[1, 5]' })).action.view_range,
    ).toEqual([1, 5]);
    const garbage = parseOk(call('file_editor', { command: 'view', path: 'a', view_range: '[2, 3]</parameter>' }));
    expect(garbage.action.view_range).toEqual([2, 3]);
    expect(garbage.normalizedCall.arguments).toBe('{"command": "view", "path": "a", "view_range": [2, 3]}');
  });

  it('decodes object fields sent as JSON text', () => {
    const configure = defineTool({
      name: 'configure',
      description: 'Configure',
      parameters: z.object({ options: z.record(z.string(), z.number()).optional() }),
      execute: () => ({ content: 'ok' }),
    });
    expect(parseOk(call('configure', { options: '{"a": 1}' }), [configure]).action).toEqual({
      options: { a: 1 },
      kind: 'ConfigureAction',
    });
  });

  it('joins string fields sent as arrays of strings, but not mixed arrays', () => {
    const result = parseOk(
      call('file_editor', { command: 'str_replace', path: 'a', old_str: ['x', 'y'], new_str: 'z' }),
    );
    expect(result.action.old_str).toBe('xy');
    const mixed = parseErr(call('file_editor', { command: 'str_replace', path: 'a', old_str: ['x', 1] }));
    expect(mixed.error).toContain('old_str\n');
  });

  it('converts numeric strings for number fields', () => {
    const result = parseOk(call('file_editor', { command: 'insert', path: 'a', insert_line: '3', new_str: 'x' }));
    expect(result.action.insert_line).toBe(3);
    expect(parseOk(call('terminal', { command: 'sleep 1', timeout: '5' })).action.timeout).toBe(5);
    expect(parseErr(call('terminal', { command: 'ls', timeout: 'soon' })).error).toContain('timeout\n');
  });
});
