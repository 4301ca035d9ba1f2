import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createInvokeSkillTool } from '../tools/invoke-skill-tool.js';
import { availableSkillsXml } from './available-skills.js';
import { defaultUserSkillsDir, loadUserSkills } from './load-skills.js';
import { createSkill, type Skill } from './skill.js';
import { SkillSet } from './skill-set.js';

let root: string;
let xHome: string;
let workspace: string;

async function write(path: string, text: string): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
}

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-user-skills-')));
  xHome = join(root, 'home');
  workspace = join(root, 'ws');
  await mkdir(workspace);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

describe('user-level skills', () => {
  it('live in $X_HOME/skills, else ~/.x/skills', () => {
    expect(defaultUserSkillsDir({ X_HOME: xHome })).toBe(join(xHome, 'skills'));
    expect(defaultUserSkillsDir({})).toBe(join(homedir(), '.x', 'skills'));
  });

  it('load like a skill directory, with disable-model-invocation, and nothing through a link out', async () => {
    const skills = defaultUserSkillsDir({ X_HOME: xHome });
    await write(join(skills, 'pdf/SKILL.md'), '---\ndescription: Reads PDFs\n---\nUse pdftotext.');
    await write(
      join(skills, 'hidden/SKILL.md'),
      '---\ndisable-model-invocation: true\ntriggers: [secret]\n---\nOnly on trigger.',
    );
    await write(join(root, 'outside.md'), 'outside');
    await symlink(join(root, 'outside.md'), join(skills, 'linked.md'));
    const loaded = await loadUserSkills([skills]);
    expect(loaded.skills.map((skill) => [skill.name, skill.disable_model_invocation])).toEqual([
      ['hidden', true],
      ['pdf', undefined],
    ]);
    // The link out is not followed: no skill 'linked' (the names above are all there is).
    expect(await loadUserSkills([join(root, 'missing')])).toEqual({ skills: [], errors: [] });
  });

  it('rank below the workspace skills and the given ones, and are only read when asked for', async () => {
    await write(join(xHome, 'skills', 'shared.md'), 'user');
    await write(join(xHome, 'skills', 'mine.md'), 'only the user has it');
    await write(join(workspace, '.agents/skills/shared.md'), 'workspace');
    const dirs = [join(xHome, 'skills')];
    const set = new SkillSet({ loadProjectSkills: true, loadUserSkills: true, userSkillsDirs: dirs });
    await set.load(workspace);
    expect(set.skills.map((skill) => [skill.name, skill.content])).toEqual([
      ['shared', 'workspace'],
      ['mine', 'only the user has it'],
    ]);
    const given = new SkillSet({
      skills: [createSkill({ name: 'mine', content: 'given' })],
      loadUserSkills: true,
      userSkillsDirs: dirs,
    });
    await given.load(workspace);
    expect(given.skills.map((skill) => skill.content)).toEqual(['given', 'user']);
    const off = new SkillSet({ userSkillsDirs: dirs });
    await off.load(workspace);
    expect(off.skills).toEqual([]);
  });
});

describe('<available_skills>', () => {
  it('lists name and description, or the first line of the content with how much was left out', () => {
    const skills: Skill[] = [
      { ...createSkill({ name: 'pdf', content: 'x' }), description: 'Reads <PDF> & more' },
      createSkill({ name: 'notes', content: '# Title\n\nFirst line.\nSecond line.' }),
    ];
    expect(availableSkillsXml(skills)).toBe(
      [
        '<available_skills>',
        '  <skill>',
        '    <name>pdf</name>',
        '    <description>Reads &lt;PDF&gt; &amp; more</description>',
        '  </skill>',
        '  <skill>',
        '    <name>notes</name>',
        '    <description>First line.... [13 characters truncated. Call invoke_skill(name="notes") to load the full skill]</description>',
        '  </skill>',
        '</available_skills>',
      ].join('\n'),
    );
    expect(availableSkillsXml([])).toBe('<available_skills>\n  no available skills\n</available_skills>');
  });
});

describe('invoke_skill', () => {
  const skills: Skill[] = [
    createSkill({ name: 'pdf', content: 'Use pdftotext.' }),
    { ...createSkill({ name: 'hidden', content: 'x', triggers: ['secret'] }), disable_model_invocation: true },
  ];
  const tool = createInvokeSkillTool(() => skills);
  const invoke = (name: string, at = workspace) => tool.execute({ name, kind: 'InvokeSkillAction' }, { workspace: at });

  it('returns the content of a skill defined in code, as the reference InvokeSkillObservation', async () => {
    expect(await invoke(' pdf ')).toEqual({
      content: [{ cache_prompt: false, type: 'text', text: 'Use pdftotext.' }],
      is_error: false,
      skill_name: 'pdf',
      kind: 'InvokeSkillObservation',
    });
  });

  it('refuses unknown skills naming the invocable ones, and skills only triggers may activate', async () => {
    expect(await invoke('nope')).toMatchObject({
      is_error: true,
      skill_name: 'nope',
      content: [{ text: "Unknown skill 'nope'. Available skills: pdf." }],
    });
    expect((await invoke('hidden')).content[0]).toMatchObject({
      text: "Skill 'hidden' cannot be invoked directly. It can only be activated by trigger matching.",
    });
  });

  it('names the directory of a skill file, relative to the workspace when inside it', async () => {
    await write(join(workspace, '.agents/skills/pdf/SKILL.md'), 'Use pdftotext.');
    const inside = createInvokeSkillTool(() => [
      createSkill({ name: 'pdf', content: 'Use pdftotext.', source: join(workspace, '.agents/skills/pdf/SKILL.md') }),
    ]);
    const observation = await inside.execute({ name: 'pdf', kind: 'InvokeSkillAction' }, { workspace });
    expect(observation.content[0]).toMatchObject({
      text: 'Use pdftotext.\n\n---\nThis skill is located at `.agents/skills/pdf`. Any files it references (e.g. under `scripts/`, `references/`, `assets/`) are relative to that directory.',
    });
  });
});
