import { describe, expect, it } from 'vitest';
import { createOfflineLLM } from '../llm/offline-llm.js';
import { createTerminalTool } from '../tools/terminal-tool.js';
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
