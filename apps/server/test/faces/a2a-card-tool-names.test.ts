// The card's skills are the default conversation's tools, looked up in the built-in descriptions by name: a tool whose
// name is also a property every object inherits (`constructor`, `toString`, `__proto__`) is a skill of that name, with
// the generic description, not what the lookup would find on Object.prototype.
import { describe, expect, it } from 'vitest';
import { agentCard } from '../../src/faces/a2a/index.js';

describe('agentCard skills of tools named like inherited properties', () => {
  it('lists each as a skill of its own name, and a built-in one with its description', () => {
    const names = ['constructor', 'toString', 'hasOwnProperty', 'terminal'];
    const card = agentCard({
      baseUrl: 'http://127.0.0.1:1',
      version: '1',
      requiresKey: false,
      defaultConversation: { agent: { tools: names.map((name) => ({ name })) } } as never,
    });
    const skills = card.skills as { id: unknown; name: unknown; description: unknown; tags: unknown }[];
    expect(skills.slice(0, 3)).toEqual(
      names.slice(0, 3).map((name) => ({ id: name, name, description: `The ${name} tool`, tags: ['tool'] })),
    );
    expect(skills[3]?.id).toBe('terminal');
    expect(skills[3]?.description).not.toBe('The terminal tool');
    expect(JSON.parse(JSON.stringify(card)).skills).toEqual(skills);
  });
});
