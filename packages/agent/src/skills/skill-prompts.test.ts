import { describe, expect, it } from 'vitest';
import { createSkill, matchSkillTrigger } from './skill.js';
import { activateSkills, repoContextPrompt } from './skill-prompts.js';

describe('matchSkillTrigger', () => {
  it('matches whole tokens case-insensitively', () => {
    const skill = createSkill({ name: 'git', content: 'git help', triggers: ['git', '/linear'] });
    expect(matchSkillTrigger(skill, 'Please use GIT here')).toBe('git');
    expect(matchSkillTrigger(skill, 'open github')).toBeUndefined();
    expect(matchSkillTrigger(skill, 'run /linear now')).toBe('/linear');
  });
});

describe('activateSkills', () => {
  const deploy = createSkill({ name: 'deploy', content: 'Use the blue pipeline.', triggers: ['deploy'] });
  const always = createSkill({ name: 'agents', content: 'Always on.' });

  it('renders the reference EXTRA_INFO block and names the activated skills', () => {
    const activation = activateSkills([deploy, always], 'please deploy the app');
    expect(activation.activatedSkills).toEqual(['deploy']);
    expect(activation.extendedContent).toEqual([
      {
        cache_prompt: false,
        type: 'text',
        text: '<EXTRA_INFO>\nThe following information has been included based on a keyword match for "deploy".\nIt may or may not be relevant to the user\'s request.\n\n\nUse the blue pipeline.\n</EXTRA_INFO>',
      },
    ]);
  });

  it('skips skills already activated and appends the user message suffix', () => {
    const activation = activateSkills([deploy], 'deploy again', { skip: ['deploy'], suffix: ' Be brief. ' });
    expect(activation).toEqual({
      activatedSkills: [],
      extendedContent: [{ cache_prompt: false, type: 'text', text: 'Be brief.' }],
    });
  });
});

describe('repoContextPrompt', () => {
  it('puts always-on skills in a REPO_CONTEXT block', () => {
    const prompt = repoContextPrompt([createSkill({ name: 'agents', content: 'Run pnpm test.' })]);
    expect(prompt).toContain('<REPO_CONTEXT>');
    expect(prompt).toContain('\n[BEGIN context from [agents]]\nRun pnpm test.\n[END Context]\n');
    expect(repoContextPrompt([createSkill({ name: 'x', content: 'y', triggers: ['y'] })])).toBeUndefined();
  });
});
