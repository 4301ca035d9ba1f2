import { describe, expect, it } from 'vitest';
import { InvalidSkillError } from './invalid-skill-error.js';
import { parseSkillFile } from './parse-skill-file.js';

const parse = (text: string, path = '/ws/.openhands/skills/deploy.md') =>
  parseSkillFile(text, { path, defaultName: 'deploy' });

async function problemOf(text: string): Promise<string> {
  const error = await parse(text).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(InvalidSkillError);
  return (error as InvalidSkillError).message;
}

describe('parseSkillFile frontmatter', () => {
  it('reads an empty or comment-only frontmatter as no fields (the reference: empty metadata)', async () => {
    for (const text of ['---\n\n---\nBody', '---\n# nothing here\n---\nBody']) {
      expect(await parse(text)).toEqual({
        name: 'deploy',
        content: 'Body',
        trigger: null,
        source: '/ws/.openhands/skills/deploy.md',
      });
    }
  });

  it('refuses a frontmatter that is a list or a scalar, naming the file', async () => {
    for (const text of ['---\n- a\n- b\n---\nBody', '---\njust words\n---\nBody']) {
      expect(await problemOf(text)).toBe(
        'Invalid skill /ws/.openhands/skills/deploy.md: its frontmatter must be a YAML mapping of fields',
      );
    }
  });

  it("names the YAML problem by the parser's first line (where it is), not the quoted source after it", async () => {
    expect(await problemOf('---\ntriggers: [unclosed\n---\nBody')).toMatch(
      /: its frontmatter is not valid YAML \([^\n]*at line 1, column \d+:?\)$/,
    );
  });

  it('makes one keyword a keyword trigger', async () => {
    expect((await parse('---\ntriggers: [deploy]\n---\nBody')).trigger).toEqual({
      type: 'keyword',
      keywords: ['deploy'],
    });
  });

  it('refuses triggers that are falsy but not a list (the reference checks for a list)', async () => {
    for (const value of ["''", 'false', '0']) {
      expect(await problemOf(`---\ntriggers: ${value}\n---\nBody`)).toBe(
        "Invalid skill /ws/.openhands/skills/deploy.md: 'triggers' must be a list of strings",
      );
    }
  });
});

describe('parseSkillFile disable-model-invocation', () => {
  it('takes the dashed key over the underscored one, even when it is false', async () => {
    const skill = await parse('---\ndisable-model-invocation: false\ndisable_model_invocation: true\n---\nBody');
    expect(skill.disable_model_invocation).toBe(false);
  });

  it('reads the underscored key when the dashed one is absent', async () => {
    const skill = await parse('---\ndisable_model_invocation: true\n---\nBody');
    expect(skill.disable_model_invocation).toBe(true);
  });

  it('refuses a value that is not true or false, saying so', async () => {
    expect(await problemOf('---\ndisable-model-invocation: sometimes\n---\nBody')).toBe(
      "Invalid skill /ws/.openhands/skills/deploy.md: 'disable-model-invocation' must be true or false",
    );
  });
});
