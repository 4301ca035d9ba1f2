import { z } from 'zod';

/** Activated when one of `keywords` appears in a user message as a whole token, case-insensitive. */
export const keywordTriggerSchema = z.object({
  type: z.literal('keyword').default('keyword'),
  keywords: z.array(z.string()),
});
/** A task skill (it has `inputs`): activated like a keyword skill by its triggers, `/<name>` among them. */
export const taskTriggerSchema = z.object({ type: z.literal('task').default('task'), triggers: z.array(z.string()) });
export const skillTriggerSchema = z.discriminatedUnion('type', [keywordTriggerSchema, taskTriggerSchema]);
export type SkillTrigger = z.infer<typeof skillTriggerSchema>;

/**
 * A skill as the reference's `Skill` model (`agent.agent_context.skills[]`): `trigger: null` means always on (its
 * content goes into the system prompt's repository context); a trigger means it is added to the user messages
 * that mention one of its keywords. Other reference fields (`version`, `inputs`, `mcp_tools`, …) are kept as given.
 */
export const skillSchema = z.looseObject({
  name: z.string().min(1),
  content: z.string(),
  trigger: skillTriggerSchema.nullable().default(null),
  /** The file the skill came from; null for skills defined in code. */
  source: z.string().nullable().default(null),
  description: z.string().nullable().optional(),
  is_agentskills_format: z.boolean().optional(),
  /** Only its triggers activate it: `invoke_skill` refuses it and `<available_skills>` does not list it. */
  disable_model_invocation: z.boolean().optional(),
});
export type Skill = z.output<typeof skillSchema>;
export type SkillInput = z.input<typeof skillSchema>;

/** Creates a skill: `triggers` (keywords) make it keyword-triggered, none makes it always on. */
export function createSkill(options: { name: string; content: string; triggers?: string[]; source?: string }): Skill {
  return skillSchema.parse({
    name: options.name,
    content: options.content,
    trigger:
      options.triggers === undefined || options.triggers.length === 0
        ? null
        : { type: 'keyword', keywords: options.triggers },
    source: options.source ?? null,
  });
}

/** The keywords of a triggered skill (none for always-on skills). */
export function skillKeywords(skill: Skill): string[] {
  if (skill.trigger === null) return [];
  return skill.trigger.type === 'keyword' ? skill.trigger.keywords : skill.trigger.triggers;
}

/** The first keyword of `skill` that occurs in `message` as a whole token (so `git` does not fire on `github`). */
export function matchSkillTrigger(skill: Skill, message: string): string | undefined {
  const lower = message.toLowerCase();
  for (const keyword of skillKeywords(skill)) {
    const needle = keyword.toLowerCase();
    if (needle === '') continue;
    const pattern = new RegExp(`(?<![a-z0-9])${needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![a-z0-9])`);
    if (pattern.test(lower)) return keyword;
  }
  return undefined;
}
