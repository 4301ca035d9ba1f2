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

describe('agentCard skills of tools configured by either spelling', () => {
  const skillsOf = (names: string[] | undefined) =>
    agentCard({
      baseUrl: 'http://127.0.0.1:1',
      version: '1',
      requiresKey: false,
      ...(names === undefined
        ? {}
        : { defaultConversation: { agent: { tools: names.map((name) => ({ name })) } } as never }),
    }).skills as { id: string; name: string; description: string }[];

  it('names each built-in tool by one skill id, whichever spelling configured it', () => {
    const pairs = [
      ['TerminalTool', 'terminal'],
      ['FileEditorTool', 'file_editor'],
      ['TaskTrackerTool', 'task_tracker'],
      ['ApplyPatchTool', 'apply_patch'],
      ['GlobTool', 'glob'],
      ['GrepTool', 'grep'],
      ['FinishTool', 'finish'],
      ['ThinkTool', 'think'],
      ['DelegateTool', 'delegate'],
    ];
    for (const [className, id] of pairs) {
      expect(skillsOf([className as string])).toEqual(skillsOf([id as string]));
      expect(skillsOf([className as string])[0]?.id).toBe(id);
    }
  });

  it('lists a tool configured twice, or by both spellings, as one skill', () => {
    expect(skillsOf(['terminal', 'TerminalTool', 'glob', 'terminal', 'GlobTool']).map((skill) => skill.id)).toEqual([
      'terminal',
      'glob',
    ]);
  });

  it('describes the file search and patch tools, and lists them among every built-in tool without a default', () => {
    for (const id of ['apply_patch', 'glob', 'grep']) {
      expect(skillsOf([id])[0]?.description).not.toBe(`The ${id} tool`);
    }
    expect(skillsOf(undefined).map((skill) => skill.id)).toEqual([
      'terminal',
      'file_editor',
      'task_tracker',
      'apply_patch',
      'glob',
      'grep',
      'delegate',
    ]);
  });
});
