import { execFileSync } from 'node:child_process';
import { link, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidSkillError } from './invalid-skill-error.js';
import { loadProjectSkills } from './load-skills.js';

let workspace: string;

async function write(path: string, text: string): Promise<void> {
  await mkdir(join(workspace, path, '..'), { recursive: true });
  await writeFile(join(workspace, path), text);
}

beforeEach(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'x-skills-'));
});
afterEach(async () => {
  await rm(workspace, { recursive: true, force: true, maxRetries: 5 });
});

describe('loadProjectSkills', () => {
  it('loads AGENTS.md and .cursorrules as always-on skills under the reference names', async () => {
    await write('AGENTS.md', 'Run pnpm test before committing.');
    await write('.cursorrules', 'Prefer small functions.');
    const { skills, errors } = await loadProjectSkills(workspace);
    expect(errors).toEqual([]);
    expect(skills).toEqual([
      {
        name: 'cursorrules',
        content: 'Prefer small functions.',
        trigger: null,
        source: join(workspace, '.cursorrules'),
      },
      {
        name: 'agents',
        content: 'Run pnpm test before committing.',
        trigger: null,
        source: join(workspace, 'AGENTS.md'),
      },
    ]);
  });

  it('reads frontmatter triggers from .openhands/skills, names nested files by path, and skips README.md', async () => {
    await write(
      '.openhands/skills/deploy.md',
      '---\ntriggers:\n  - deploy\n  - ship it\n---\nUse the blue pipeline.\n',
    );
    await write('.openhands/skills/python/style.md', 'Use ruff.');
    await write('.openhands/skills/README.md', 'Not a skill.');
    await write('.openhands/microagents/legacy.md', '---\nname: old-one\n---\nLegacy knowledge.');
    const { skills, errors } = await loadProjectSkills(workspace);
    expect(errors).toEqual([]);
    expect(skills.map((skill) => [skill.name, skill.trigger])).toEqual([
      ['deploy', { type: 'keyword', keywords: ['deploy', 'ship it'] }],
      ['python/style', null],
      ['old-one', null],
    ]);
    expect(skills[0]?.content).toBe('Use the blue pipeline.\n');
  });

  it('reads AgentSkills SKILL.md directories and task skills with inputs', async () => {
    await write('.agents/skills/release-notes/SKILL.md', '---\ndescription: Writes release notes\n---\nSteps...');
    await write('.agents/skills/review.md', '---\ninputs:\n  - name: PR\n    description: the PR\n---\nReview it.');
    const { skills } = await loadProjectSkills(workspace);
    expect(skills.find((skill) => skill.name === 'release-notes')).toMatchObject({
      description: 'Writes release notes',
      is_agentskills_format: true,
      trigger: null,
    });
    expect(skills.find((skill) => skill.name === 'review')?.trigger).toEqual({ type: 'task', triggers: ['/review'] });
  });

  it('reports a file with broken frontmatter as an error naming the file, and loads the others', async () => {
    await write('.openhands/skills/broken.md', '---\ntriggers: [unclosed\n---\nBody');
    await write('.openhands/skills/bad-triggers.md', '---\ntriggers: deploy\n---\nBody');
    await write('.openhands/skills/good.md', '---\ntriggers: [good]\n---\nFine.');
    const { skills, errors } = await loadProjectSkills(workspace);
    expect(skills.map((skill) => skill.name)).toEqual(['good']);
    expect(errors).toHaveLength(2);
    for (const error of errors) expect(error).toBeInstanceOf(InvalidSkillError);
    expect(errors.map((error) => error.message)).toEqual([
      `Invalid skill ${join(workspace, '.openhands/skills/bad-triggers.md')}: 'triggers' must be a list of strings`,
      expect.stringMatching(
        new RegExp(
          `^Invalid skill ${join(workspace, '.openhands/skills/broken.md')}: its frontmatter is not valid YAML`,
        ),
      ),
    ]);
  });

  it('finds nothing in an empty or missing workspace', async () => {
    expect(await loadProjectSkills(join(workspace, 'missing'))).toEqual({ skills: [], errors: [] });
  });
});

describe('loadProjectSkills confinement', () => {
  it('reads no skill file that leaves the workspace (a linked skill directory, a hard link) and no FIFO', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'x-skills-outside-'));
    try {
      await writeFile(join(outside, 'secret.md'), 'outside secret');
      await writeFile(join(outside, 'AGENTS.md'), 'outside agents');
      await mkdir(join(workspace, '.agents'));
      await symlink(outside, join(workspace, '.agents', 'skills'));
      await link(join(outside, 'AGENTS.md'), join(workspace, 'AGENTS.md'));
      await mkdir(join(workspace, '.openhands', 'skills'), { recursive: true });
      execFileSync('mkfifo', [join(workspace, '.openhands', 'skills', 'pipe.md')]);
      await write('.openhands/skills/fine.md', 'inside skill');
      const { skills, errors } = await loadProjectSkills(workspace);
      expect(skills.map((skill) => skill.content)).toEqual(['inside skill']);
      expect(errors.map((error) => error.message).join('\n')).toMatch(/outside the workspace/);
      expect(errors.map((error) => error.message).join('\n')).toMatch(/hard links/);
    } finally {
      await rm(outside, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
