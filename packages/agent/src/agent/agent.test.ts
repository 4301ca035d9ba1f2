import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOfflineLLM } from '../llm/offline-llm.js';
import { createTerminalTool } from '../tools/terminal-tool.js';
import { defineTool } from '../tools/tool.js';
import { ToolNameCollisionError } from '../tools/tool-name-collision-error.js';
import { Agent } from './agent.js';

function propertiesOf(agent: Agent, securityAnalyzerEnabled: boolean, name: string): string[] {
  const tool = agent.chatTools(securityAnalyzerEnabled).find((entry) => entry.function.name === name);
  if (tool === undefined) throw new Error(`no chat tool named ${name}`);
  return Object.keys((tool.function.parameters as { properties: object }).properties);
}

describe('Agent.chatTools', () => {
  it('offers security_risk only when an analyzer reads it, whichever is asked for first', () => {
    const agent = new Agent({ llm: createOfflineLLM({ script: [] }), tools: [createTerminalTool()] });
    expect(propertiesOf(agent, false, 'terminal')).not.toContain('security_risk');
    expect(propertiesOf(agent, true, 'terminal')).toContain('security_risk');
    expect(propertiesOf(agent, false, 'terminal')).not.toContain('security_risk');
    expect(agent.chatTools(true)).toBe(agent.chatTools(true));
  });
});

describe('Agent tool names', () => {
  const llm = createOfflineLLM({ script: [] });
  const named = (name: string) =>
    defineTool({
      name,
      description: name,
      parameters: z.object({}),
      execute: async () => ({ content: [], is_error: false }),
    });

  it('refuses two tools of one name (also differing only in case), naming them in one typed error', () => {
    expect(() => new Agent({ llm, tools: [createTerminalTool(), createTerminalTool()] })).toThrow(
      ToolNameCollisionError,
    );
    try {
      new Agent({ llm, tools: [named('lookup'), named('Lookup'), named('other')] });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolNameCollisionError);
      expect((error as ToolNameCollisionError).tools).toEqual(['lookup', 'Lookup']);
      expect((error as ToolNameCollisionError).code).toBe('tool_name_collision');
    }
    expect(() => new Agent({ llm, tools: [named('Finish')] })).toThrow(/'Finish', 'finish' collide/);
  });

  it('lets a custom tool replace a built-in of exactly its name (finish)', () => {
    const agent = new Agent({ llm, tools: [named('finish')] });
    expect(agent.tools.filter((tool) => tool.name === 'finish')).toHaveLength(1);
  });
});
