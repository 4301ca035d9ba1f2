import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { summaryParameterDescription, toolToChatTool, toolToDefinition } from './chat-tool.js';
import { createFileEditorTool } from './file-editor-tool.js';
import { finishTool } from './finish-tool.js';
import { createTerminalTool } from './terminal-tool.js';
import { thinkTool } from './think-tool.js';
import { defineTool } from './tool.js';

describe('toolToChatTool', () => {
  it('puts summary then security_risk first, keeps the tool fields and their required list', () => {
    const chat = toolToChatTool(createTerminalTool());
    expect(chat.type).toBe('function');
    expect(chat.function.name).toBe('terminal');
    const parameters = chat.function.parameters;
    expect(parameters.$schema).toBeUndefined();
    expect(parameters.type).toBe('object');
    const properties = parameters.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties)).toEqual(['summary', 'security_risk', 'command', 'is_input', 'timeout', 'reset']);
    expect(properties.summary).toEqual({ type: 'string', description: summaryParameterDescription });
    expect(properties.security_risk?.enum).toEqual(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH']);
    expect(typeof properties.security_risk?.description).toBe('string');
    expect(parameters.required).toEqual(['command']);
  });

  it('gives read-only tools no security_risk, and none when disabled', () => {
    const think = toolToChatTool(thinkTool).function.parameters.properties as Record<string, unknown>;
    expect(Object.keys(think)).toEqual(['summary', 'thought']);
    const finish = toolToChatTool(finishTool).function.parameters.properties as Record<string, unknown>;
    expect(Object.keys(finish)).toEqual(['summary', 'message']);
    const editor = toolToChatTool(createFileEditorTool(), { withSecurityRisk: false });
    expect(Object.keys(editor.function.parameters.properties as object)[0]).toBe('summary');
    expect('security_risk' in (editor.function.parameters.properties as object)).toBe(false);
  });

  it('drops zod safe-integer bounds but keeps real ones, and keeps a tool-declared summary', () => {
    const tool = defineTool({
      name: 'ticket',
      description: 'Open a ticket',
      parameters: z.object({
        summary: z.string().describe('Ticket title'),
        priority: z.number().int().min(1).max(5),
        count: z.number().int().default(1),
      }),
      execute: () => ({ content: '' }),
    });
    const parameters = toolToChatTool(tool).function.parameters;
    const properties = parameters.properties as Record<string, Record<string, unknown>>;
    expect(Object.keys(properties)).toEqual(['summary', 'security_risk', 'priority', 'count']);
    expect(properties.summary).toEqual({ type: 'string', description: 'Ticket title' });
    expect(properties.priority).toEqual({ type: 'integer', minimum: 1, maximum: 5 });
    expect(properties.count).toEqual({ type: 'integer', default: 1 });
    expect(parameters.required).toEqual(['summary', 'priority']);
  });
});

describe('toolToDefinition', () => {
  it('writes the finish tool exactly as the reference', () => {
    expect(JSON.stringify(toolToDefinition(finishTool))).toBe(
      JSON.stringify({
        description: finishTool.description,
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
      }),
    );
  });

  it('computes the title from the name and fills annotation defaults', () => {
    const think = toolToDefinition(thinkTool);
    expect(think.title).toBe('think');
    expect(think.annotations).toEqual({
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    const plain = defineTool({
      name: 'do_it',
      description: 'd',
      parameters: z.object({}),
      annotations: { idempotentHint: true },
      execute: () => ({ content: '' }),
    });
    expect(toolToDefinition(plain)).toEqual({
      description: 'd',
      action_type: 'DoItAction',
      observation_type: 'DoItObservation',
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
      kind: 'DoItTool',
      title: 'do_it',
    });
    expect(toolToDefinition(createTerminalTool()).kind).toBe('TerminalTool');
    expect(toolToDefinition(createFileEditorTool()).action_type).toBe('FileEditorAction');
  });
});
