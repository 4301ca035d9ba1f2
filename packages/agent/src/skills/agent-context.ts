import { z } from 'zod';
import { InvalidSkillError } from './invalid-skill-error.js';
import { type Skill, type SkillInput, skillSchema } from './skill.js';

/** How an agent extends its prompts with skills (the x side of the reference's `AgentContext`). */
export interface AgentContextOptions {
  /** Skills given in code or in a request; they win over loaded skills of the same name. */
  skills?: readonly SkillInput[];
  /** Load AGENTS.md & co. and the skill directories of the conversation's workspace. Default false. */
  loadProjectSkills?: boolean;
  /**
   * Load the user's own skills from `userSkillsDirs` (default `$X_HOME/skills`, else `~/.x/skills`). Skills of the
   * workspace win over them. Default false.
   */
  loadUserSkills?: boolean;
  /** Where the user's skills are (default `[defaultUserSkillsDir()]`). */
  userSkillsDirs?: readonly string[];
  /** Appended to the system prompt's dynamic context. */
  systemMessageSuffix?: string;
  /** Appended to every user message's `extended_content`. */
  userMessageSuffix?: string;
}

/**
 * The reference's `agent.agent_context` JSON. Fields x does not act on (`secrets`, `current_datetime`, …) are
 * accepted and ignored, and so is `load_user_skills`: this is what a server reads from a request, and a client must
 * not make the server read its host's home directory (set `loadUserSkills` in code instead).
 */
export const agentContextJsonSchema = z.looseObject({
  skills: z.array(z.unknown()).default([]),
  system_message_suffix: z.string().nullable().optional(),
  user_message_suffix: z.string().nullable().optional(),
  load_project_skills: z.boolean().optional(),
});

/**
 * Reads the reference's `agent_context` JSON; a malformed skill, or a second skill of one name, throws
 * `InvalidSkillError` naming its index.
 */
export function parseAgentContext(value: unknown): AgentContextOptions {
  const parsed = agentContextJsonSchema.safeParse(value ?? {});
  if (!parsed.success) {
    throw new InvalidSkillError('agent_context', parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  const skills: Skill[] = parsed.data.skills.map((raw, index) => {
    const skill = skillSchema.safeParse(raw);
    if (!skill.success) {
      const problems = skill.error.issues.map((issue) => `${issue.path.join('.') || '(skill)'}: ${issue.message}`);
      throw new InvalidSkillError(`agent_context.skills[${index}]`, problems.join('; '));
    }
    return skill.data;
  });
  // The reference's AgentContext refuses two skills of one name (which of them would a trigger or invoke_skill mean?).
  const seen = new Set<string>();
  for (const [index, skill] of skills.entries()) {
    if (seen.has(skill.name)) {
      throw new InvalidSkillError(`agent_context.skills[${index}]`, `duplicate skill name '${skill.name}'`);
    }
    seen.add(skill.name);
  }
  const { system_message_suffix: systemSuffix, user_message_suffix: userSuffix } = parsed.data;
  return {
    skills,
    ...(parsed.data.load_project_skills === undefined ? {} : { loadProjectSkills: parsed.data.load_project_skills }),
    ...(typeof systemSuffix === 'string' ? { systemMessageSuffix: systemSuffix } : {}),
    ...(typeof userSuffix === 'string' ? { userMessageSuffix: userSuffix } : {}),
  };
}

/** The `agent_context` JSON written to base_state.json. */
export function agentContextToJSON(options: AgentContextOptions, skills: readonly Skill[]): Record<string, unknown> {
  return {
    skills,
    ...(options.systemMessageSuffix === undefined ? {} : { system_message_suffix: options.systemMessageSuffix }),
    ...(options.userMessageSuffix === undefined ? {} : { user_message_suffix: options.userMessageSuffix }),
    load_project_skills: options.loadProjectSkills ?? false,
    ...(options.loadUserSkills === true ? { load_user_skills: true } : {}),
  };
}
