import { describe, expect, it } from 'vitest';
import { Agent } from '../src/agent/agent.js';
import { AgentRoster } from '../src/handoff/agent-roster.js';
import { InvalidAgentRosterError } from '../src/handoff/invalid-agent-roster-error.js';
import { UnknownAgentError } from '../src/handoff/unknown-agent-error.js';
import { createOfflineLLM } from '../src/llm/offline-llm.js';
import { initialConversationState } from '../src/state/conversation-state.js';
import { ToolExecutionError } from '../src/tools/tool-execution-error.js';

// Who may take control, under which name, and what each agent is offered to pass it on; no model is called.
const agent = (name: string, description?: string) =>
  new Agent({ name, description, llm: createOfflineLLM({ script: [] }) });

const transferTargets = (roster: AgentRoster, of: Agent): string[] | undefined => {
  const transfer = roster.toolsFor(of).find((tool) => tool.name === 'transfer_to_agent');
  const schema = transfer?.inputSchema as { properties: { agent_name: { enum: string[] } } } | undefined;
  return schema?.properties.agent_name.enum;
};

describe('AgentRoster', () => {
  it('a lone agent has no one to pass control to: no transfer tool, no escalate unless asked', () => {
    const lone = agent('solo');
    const roster = new AgentRoster({ agent: lone });
    expect(roster.transfers).toBe(false);
    expect(roster.names).toEqual(['solo']);
    expect(roster.agents).toEqual([lone]);
    expect(roster.toolsFor(lone)).toEqual([]);
    expect([...roster.toolNames()].sort()).toEqual(['finish', 'think']);
    const escalating = new AgentRoster({ agent: lone, escalate: true });
    expect(escalating.toolsFor(lone).map((tool) => tool.name)).toEqual(['escalate']);
    expect(escalating.transfers).toBe(false);
  });

  it('adds the first agent under its own name when agents does not list it', () => {
    const triage = agent('triage');
    const billing = agent('billing', 'Handles refunds.');
    const roster = new AgentRoster({ agent: triage, agents: { refunds: billing } });
    expect(roster.names).toEqual(['refunds', 'triage']);
    expect(roster.transfers).toBe(true);
    expect(roster.resolve('triage')).toBe(triage);
    expect(roster.resolve('refunds')).toBe(billing);
    expect(roster.nameOf(billing)).toBe('refunds');
    expect(roster.nameOf(triage)).toBe('triage');
    expect(transferTargets(roster, triage)).toEqual(['refunds']);
    expect(transferTargets(roster, billing)).toEqual(['triage']);
  });

  it('uses the name agents gives the first agent, not its own', () => {
    const triage = agent('agent');
    const billing = agent('billing');
    const roster = new AgentRoster({ agent: triage, agents: { front: triage, billing } });
    expect(roster.names).toEqual(['front', 'billing']);
    expect(roster.nameOf(triage)).toBe('front');
    expect(() => roster.resolve('agent')).toThrow(UnknownAgentError);
  });

  it('never offers an agent a transfer to itself under another name', () => {
    const triage = agent('triage');
    const billing = agent('billing');
    const roster = new AgentRoster({ agent: triage, agents: { triage, billing, refunds: billing } });
    expect(roster.agents).toEqual([triage, billing]);
    expect(roster.nameOf(billing)).toBe('billing');
    expect(transferTargets(roster, billing)).toEqual(['triage']);
    // Each other agent once, under its first name: 'refunds' is billing again, not a third agent.
    expect(transferTargets(roster, triage)).toEqual(['billing']);
    expect(roster.resolve('refunds')).toBe(billing);
  });

  it('counts agents, not names: one agent under two names has no one to pass control to', () => {
    const triage = agent('triage');
    const roster = new AgentRoster({ agent: triage, agents: { triage, front: triage } });
    expect(roster.transfers).toBe(false);
    expect(roster.agents).toEqual([triage]);
    expect(roster.names).toEqual(['triage', 'front']);
    expect(roster.toolsFor(triage)).toEqual([]);
    expect([...roster.toolNames()].sort()).toEqual(['finish', 'think']);
    // Listed under a name of its own besides the one it was created with: still one agent.
    const renamed = new AgentRoster({ agent: triage, agents: { front: triage, desk: triage } });
    expect(renamed.transfers).toBe(false);
    expect(renamed.toolsFor(triage)).toEqual([]);
  });

  it('refuses a transfer to the agent in control under any of its names, and passes control to another', () => {
    const triage = agent('triage');
    const billing = agent('billing');
    const roster = new AgentRoster({ agent: triage, agents: { triage, front: triage, billing, refunds: billing } });
    expect(roster.transferTarget('refunds', triage)).toBe(billing);
    expect(roster.transferTarget('front', billing)).toBe(triage);
    for (const [name, inControl] of [
      ['front', triage],
      ['triage', triage],
      ['refunds', billing],
    ] as const) {
      const error = (() => {
        try {
          return roster.transferTarget(name, inControl);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(ToolExecutionError);
      expect(error).toMatchObject({ toolName: 'transfer_to_agent' });
      expect((error as Error).message).toContain(`'${name}' is the agent in control`);
    }
    expect(() => roster.transferTarget('front', triage)).toThrow(
      /control stays with it; transfer to another: 'billing'\.$/,
    );
    expect(() => roster.transferTarget('refunds', billing)).toThrow(/\('billing'\), so control stays/);
    expect(() => roster.transferTarget('nobody', triage)).toThrow(UnknownAgentError);
    const alone = new AgentRoster({ agent: triage, agents: { front: triage } });
    expect(() => alone.transferTarget('front', triage)).toThrow(/; the conversation has no other agent\.$/);
  });

  it('refuses a blank name, and a first agent whose name another agent holds', () => {
    const triage = agent('triage');
    expect(() => new AgentRoster({ agent: triage, agents: { '  ': agent('x') } })).toThrow(InvalidAgentRosterError);
    const clash = (() => {
      try {
        return new AgentRoster({ agent: triage, agents: { triage: agent('other') } });
      } catch (error) {
        return error;
      }
    })();
    expect(clash).toBeInstanceOf(InvalidAgentRosterError);
    expect((clash as Error).message).toContain("'triage' names another agent");
  });

  it('names an unknown agent with where it was asked for and the names there are', () => {
    const roster = new AgentRoster({ agent: agent('triage'), agents: { billing: agent('billing') } });
    const error = (() => {
      try {
        return roster.resolve('nobody');
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnknownAgentError);
    expect(error).toMatchObject({ agentName: 'nobody', known: ['billing', 'triage'] });
    expect((error as Error).message).toMatch(/^transfer_to_agent: no agent named 'nobody'/);
  });

  it('the agent in control is the one the state names, the first one when none is named', () => {
    const triage = agent('triage');
    const billing = agent('billing');
    const roster = new AgentRoster({ agent: triage, agents: { billing } });
    const state = initialConversationState({ id: 'c1' });
    expect(roster.active(state)).toBe(triage);
    expect(roster.active({ ...state, active_agent: { name: 'billing' } })).toBe(billing);
    expect(() => roster.active({ ...state, active_agent: { name: 'ghost' } })).toThrow(
      /^Conversation c1: active_agent: no agent named 'ghost'/,
    );
  });

  it('names an agent outside the roster by its own name', () => {
    const roster = new AgentRoster({ agent: agent('triage') });
    expect(roster.nameOf(agent('stranger'))).toBe('stranger');
  });

  it('offers each agent the same tool objects every step', () => {
    const triage = agent('triage');
    const roster = new AgentRoster({ agent: triage, agents: { billing: agent('billing') }, escalate: true });
    const first = roster.toolsFor(triage);
    expect(first.map((tool) => tool.name)).toEqual(['transfer_to_agent', 'escalate']);
    expect(roster.toolsFor(triage)).toBe(first);
    expect([...roster.toolNames()].sort()).toEqual(['escalate', 'finish', 'think', 'transfer_to_agent']);
  });
});
