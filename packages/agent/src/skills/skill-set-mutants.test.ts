import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Message } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { agentContextToJSON, parseAgentContext } from './agent-context.js';
import { InvalidSkillError } from './invalid-skill-error.js';
import { createSkill } from './skill.js';
import { SkillSet } from './skill-set.js';

let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'x-skill-set-')));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

const userMessage = (...texts: string[]): Message => ({
  role: 'user',
  content: texts.map((text) => ({ type: 'text', text, cache_prompt: false })),
  thinking_blocks: [],
});

describe('SkillSet', () => {
  it('returns the files that could not be read, and still loads the others', async () => {
    await mkdir(join(workspace, '.agents/skills'), { recursive: true });
    await writeFile(join(workspace, '.agents/skills/broken.md'), '---\ntriggers: deploy\n---\nBody');
    await writeFile(join(workspace, '.agents/skills/fine.md'), 'Fine.');
    const set = new SkillSet({ loadProjectSkills: true });
    const errors = await set.load(workspace);
    expect(errors.map((error) => error.source)).toEqual([join(workspace, '.agents/skills/broken.md')]);
    expect(set.skills.map((skill) => skill.name)).toEqual(['fine']);
  });

  it('offers invoke_skill only when an invocable AgentSkills-format skill is there', () => {
    const pdf = { ...createSkill({ name: 'pdf', content: 'x' }), is_agentskills_format: true };
    expect(new SkillSet({ skills: [pdf] }).hasInvocableSkills).toBe(true);
    expect(new SkillSet({ skills: [createSkill({ name: 'notes', content: 'x' })] }).hasInvocableSkills).toBe(false);
  });

  it('builds the dynamic context from the repository context and the trimmed system suffix', () => {
    const agents = createSkill({ name: 'agents', content: 'Run tests.' });
    const both = new SkillSet({ skills: [agents], systemMessageSuffix: '  Be kind.  ' }).systemContext() ?? '';
    expect(both.startsWith('<REPO_CONTEXT>\n')).toBe(true);
    expect(both.endsWith('</REPO_CONTEXT>\n\nBe kind.')).toBe(true);
    expect(new SkillSet({ systemMessageSuffix: 'Only this.' }).systemContext()).toBe('Only this.');
    expect(new SkillSet({ systemMessageSuffix: '   ' }).systemContext()).toBeUndefined();
    expect(new SkillSet({}).systemContext()).toBeUndefined();
  });

  it('activates on the text parts of a user message, with the user message suffix', () => {
    const deploy = createSkill({ name: 'deploy', content: 'Blue.', triggers: ['deploy'] });
    const set = new SkillSet({ skills: [deploy], userMessageSuffix: 'Be brief.' });
    const message: Message = {
      role: 'user',
      content: [
        { type: 'image', image_urls: ['data:image/png;base64,AAAA'], cache_prompt: false },
        { type: 'text', text: 'please', cache_prompt: false },
      ],
      thinking_blocks: [],
    };
    expect(set.activate(message, [])).toEqual({
      activatedSkills: [],
      extendedContent: [{ cache_prompt: false, type: 'text', text: 'Be brief.' }],
    });
    const activation = set.activate(userMessage('please', 'deploy it'), []);
    expect(activation.activatedSkills).toEqual(['deploy']);
    expect(activation.extendedContent[0]?.text.endsWith('Blue.\n</EXTRA_INFO>\nBe brief.')).toBe(true);
  });

  it('writes its options and skills as the reference agent_context', () => {
    const skill = createSkill({ name: 'agents', content: 'x' });
    const set = new SkillSet({ skills: [skill], systemMessageSuffix: 's', userMessageSuffix: 'u' });
    expect(set.toJSON()).toEqual({
      skills: [skill],
      system_message_suffix: 's',
      user_message_suffix: 'u',
      load_project_skills: false,
    });
  });
});

describe('agent_context JSON', () => {
  it('writes load_project_skills always and load_user_skills only when on', () => {
    expect(agentContextToJSON({}, [])).toEqual({ skills: [], load_project_skills: false });
    expect(agentContextToJSON({ loadProjectSkills: true, loadUserSkills: true }, [])).toEqual({
      skills: [],
      load_project_skills: true,
      load_user_skills: true,
    });
    expect(agentContextToJSON({ loadUserSkills: false }, [])).toEqual({ skills: [], load_project_skills: false });
  });

  it('reads the reference fields back', () => {
    const skill = { name: 'deploy', content: 'Blue.', trigger: { type: 'keyword', keywords: ['deploy'] } };
    expect(
      parseAgentContext({
        skills: [skill],
        system_message_suffix: 's',
        user_message_suffix: 'u',
        load_project_skills: false,
        current_datetime: null,
      }),
    ).toEqual({
      skills: [{ ...skill, source: null }],
      loadProjectSkills: false,
      systemMessageSuffix: 's',
      userMessageSuffix: 'u',
    });
    expect(parseAgentContext(undefined)).toEqual({ skills: [] });
    expect(parseAgentContext({ system_message_suffix: null })).toEqual({ skills: [] });
  });

  it('refuses two skills of one name, as the reference AgentContext does, naming the second', () => {
    const skills = [
      { name: 'deploy', content: 'one' },
      { name: 'other', content: 'x' },
      { name: 'deploy', content: 'two' },
    ];
    expect(() => parseAgentContext({ skills })).toThrow(
      new InvalidSkillError('agent_context.skills[2]', "duplicate skill name 'deploy'"),
    );
  });

  it('refuses an agent_context that is not an object, and names the field of a malformed skill', () => {
    for (const value of ['', 0, false, []]) expect(() => parseAgentContext(value)).toThrow(InvalidSkillError);
    expect(() =>
      parseAgentContext({
        skills: [
          { name: 'ok', content: 'x' },
          { name: '', content: 'x' },
        ],
      }),
    ).toThrow(/^Invalid skill agent_context\.skills\[1\]: name: /);
    expect(() => parseAgentContext({ skills: ['not a skill'] })).toThrow(
      /^Invalid skill agent_context\.skills\[0\]: \(skill\): /,
    );
  });
});
