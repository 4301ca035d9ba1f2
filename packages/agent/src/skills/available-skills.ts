import type { Skill } from './skill.js';

/** Descriptions longer than this are cut in `<available_skills>` (the reference's `max_description_length`). */
const maxDescriptionLength = 1024;

/** An AgentSkills-format skill the model may load itself: what makes the agent offer `invoke_skill`. */
export function isInvocableAgentSkill(skill: Skill): boolean {
  return skill.is_agentskills_format === true && skill.disable_model_invocation !== true;
}

/**
 * The skills listed in `<available_skills>` (the reference's `_partition_skills`): AgentSkills-format and triggered
 * skills, unless their model invocation is disabled. Untriggered legacy skills go to `<REPO_CONTEXT>` instead.
 */
export function listedSkills(skills: readonly Skill[]): Skill[] {
  return skills.filter(
    (skill) =>
      (skill.is_agentskills_format === true || skill.trigger !== null) && skill.disable_model_invocation !== true,
  );
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * The reference's `to_prompt`: name and description of each skill (the first non-heading line of its content when it
 * has no description, with how much was left out). No location: `invoke_skill` is the only way to read a skill.
 */
export function availableSkillsXml(skills: readonly Skill[]): string {
  if (skills.length === 0) return '<available_skills>\n  no available skills\n</available_skills>';
  const lines = ['<available_skills>'];
  for (const skill of skills) {
    let description = skill.description ?? '';
    let truncated = 0;
    if (!description) {
      let before = 0;
      for (const line of skill.content.split('\n')) {
        const stripped = line.trim();
        if (!stripped || stripped.startsWith('#')) {
          before += line.length + 1;
          continue;
        }
        description = stripped;
        truncated = Math.max(0, skill.content.length - (before + line.length));
        break;
      }
    }
    if (description.length > maxDescriptionLength) {
      truncated += description.length - maxDescriptionLength;
      description = description.slice(0, maxDescriptionLength);
    }
    if (truncated > 0) {
      description += `... [${truncated} characters truncated. Call invoke_skill(name="${skill.name}") to load the full skill]`;
    }
    lines.push('  <skill>');
    lines.push(`    <name>${escapeXml(skill.name.trim())}</name>`);
    lines.push(`    <description>${escapeXml(description.trim())}</description>`);
    lines.push('  </skill>');
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}

/** The reference's `<SKILLS>` section of the system prompt's dynamic context. */
export function availableSkillsPrompt(skills: readonly Skill[]): string {
  return [
    '<SKILLS>',
    'The following skills are available. Some are auto-injected when their keywords or task types appear in your messages; others are listed here for you to invoke proactively when relevant.',
    'To use a skill, call the `invoke_skill(name="<skill-name>")` tool with the `<name>` shown below. This is the only supported way to invoke a skill.',
    '',
    availableSkillsXml(skills),
    '</SKILLS>',
  ].join('\n');
}
