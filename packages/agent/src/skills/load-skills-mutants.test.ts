import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultUserSkillsDir, loadProjectSkills, loadSkillsFromDir, loadUserSkills } from './load-skills.js';

let root: string;

async function write(path: string, text: string): Promise<void> {
  await mkdir(join(root, path, '..'), { recursive: true });
  await writeFile(join(root, path), text);
}

const summary = (loaded: Awaited<ReturnType<typeof loadProjectSkills>>) => ({
  skills: loaded.skills.map((skill) => [skill.name, skill.content]),
  errors: loaded.errors.map((error) => error.source),
});

beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'x-skills-mutants-')));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true, maxRetries: 5 });
});

describe('loadProjectSkills at the workspace root', () => {
  it('reads the instruction files in name order, so AGENT.md wins over AGENTS.md (the reference sorts too)', async () => {
    // Written in an order unlike the sorted one, so the result does not depend on the directory's order.
    await write('GEMINI.md', 'gemini');
    await write('CLAUDE.md', 'claude');
    await write('AGENTS.md', 'agents plural');
    await write('AGENT.md', 'agent singular');
    await write('.cursorrules', 'cursor');
    expect(summary(await loadProjectSkills(root))).toEqual({
      skills: [
        ['cursorrules', 'cursor'],
        ['agents', 'agent singular'],
        ['claude', 'claude'],
        ['gemini', 'gemini'],
      ],
      errors: [],
    });
  });

  it('reads no other file and no directory at the root', async () => {
    await write('README.md', 'the readme');
    await write('notes.md', 'notes');
    await write('claude.md/inner.txt', 'a directory named like an instruction file');
    await write('AGENTS.md', 'agents');
    expect(summary(await loadProjectSkills(root))).toEqual({ skills: [['agents', 'agents']], errors: [] });
  });

  it('reads no file named like a property every object inherits (constructor, __proto__, toString)', async () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) await write(name, 'not a skill');
    await write('AGENTS.md', 'agents');
    expect(summary(await loadProjectSkills(root))).toEqual({ skills: [['agents', 'agents']], errors: [] });
  });

  it('keeps the first skill of a name across the skill directories (.agents before .openhands)', async () => {
    await write('.openhands/microagents/deploy.md', 'microagents');
    await write('.openhands/skills/deploy.md', 'openhands');
    await write('.agents/skills/deploy.md', 'agents');
    expect(summary(await loadProjectSkills(root))).toEqual({ skills: [['deploy', 'agents']], errors: [] });
  });
});

describe('loadSkillsFromDir', () => {
  it('reads only markdown, and nothing inside a SKILL.md directory but its SKILL.md', async () => {
    await write('skills/pdf/SKILL.md', 'Use pdftotext.');
    await write('skills/pdf/references/guide.md', 'a reference, not a skill');
    await write('skills/pdf/scripts/run.sh', 'echo');
    await write('skills/notes.txt', 'not markdown');
    await write('skills/style.md', 'Use ruff.');
    expect(summary(await loadSkillsFromDir(join(root, 'skills')))).toEqual({
      skills: [
        ['pdf', 'Use pdftotext.'],
        ['style', 'Use ruff.'],
      ],
      errors: [],
    });
  });

  it('reads nothing when the root it must stay inside does not exist', async () => {
    await write('skills/style.md', 'Use ruff.');
    expect(await loadSkillsFromDir(join(root, 'skills'), join(root, 'missing'))).toEqual({ skills: [], errors: [] });
  });

  it('closes every directory it opens (loading many skills leaves no descriptor open)', async () => {
    for (let index = 0; index < 20; index += 1)
      await write(`skills/group-${index}/skill-${index}.md`, `skill ${index}`);
    const before = (await readdir('/proc/self/fd')).length;
    const loaded = await loadSkillsFromDir(join(root, 'skills'));
    expect(loaded.skills).toHaveLength(20);
    expect((await readdir('/proc/self/fd')).length).toBe(before);
  });
});

describe('loadUserSkills', () => {
  it('keeps the first skill of a name across directories and reports the broken files of each', async () => {
    await write('first/shared.md', 'from the first');
    await write('second/shared.md', 'from the second');
    await write('second/broken.md', '---\ntriggers: deploy\n---\nBody');
    const loaded = await loadUserSkills([join(root, 'first'), join(root, 'second')]);
    expect(summary(loaded)).toEqual({
      skills: [['shared', 'from the first']],
      errors: [join(root, 'second/broken.md')],
    });
  });

  it('take an empty X_HOME as unset', () => {
    expect(defaultUserSkillsDir({ X_HOME: '' })).toBe(defaultUserSkillsDir({}));
  });
});
