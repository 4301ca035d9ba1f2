import { InvalidSkillError } from './invalid-skill-error.js';
import { type Skill, skillSchema } from './skill.js';

/** Lower-case file names of third-party instruction files → skill name (reference `PATH_TO_THIRD_PARTY_SKILL_NAME`). */
export const THIRD_PARTY_SKILL_FILES: Readonly<Record<string, string>> = Object.freeze({
  '.cursorrules': 'cursorrules',
  'agents.md': 'agents',
  'agent.md': 'agents',
  'claude.md': 'claude',
  'gemini.md': 'gemini',
});

/**
 * The skill name of a third-party instruction file named `fileName` (any case), or undefined for any other file: a
 * file named `constructor` or `__proto__` is no instruction file, whatever Object.prototype holds under that name.
 */
export function thirdPartySkillName(fileName: string): string | undefined {
  const key = fileName.toLowerCase();
  return Object.hasOwn(THIRD_PARTY_SKILL_FILES, key) ? THIRD_PARTY_SKILL_FILES[key] : undefined;
}

export interface ParseSkillFileOptions {
  /** Path recorded as the skill's `source`. */
  path: string;
  /** Name used when the frontmatter gives none (the path relative to the skills directory, without `.md`). */
  defaultName: string;
  /** A `SKILL.md` of the AgentSkills format. */
  agentSkillsFormat?: boolean;
}

const frontmatterPattern = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/**
 * Reads one skill file in the reference's format: optional YAML frontmatter (`name`, `triggers`, `inputs`,
 * `description`, …) between `---` lines, then the markdown content. Throws `InvalidSkillError` naming the file.
 */
export async function parseSkillFile(text: string, options: ParseSkillFileOptions): Promise<Skill> {
  const thirdParty = thirdPartySkillName(basename(options.path));
  if (thirdParty !== undefined) {
    return skillSchema.parse({ name: thirdParty, content: text, trigger: null, source: options.path });
  }
  const match = frontmatterPattern.exec(text);
  let metadata: Record<string, unknown> = {};
  let content = text;
  if (match !== null) {
    content = text.slice(match[0].length);
    const { parse } = await import('yaml');
    let parsed: unknown;
    try {
      parsed = parse(match[1] ?? '');
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new InvalidSkillError(options.path, `its frontmatter is not valid YAML (${reason})`, { cause: error });
    }
    if (parsed !== null && parsed !== undefined) {
      if (typeof parsed !== 'object' || Array.isArray(parsed)) {
        throw new InvalidSkillError(options.path, 'its frontmatter must be a YAML mapping of fields');
      }
      metadata = parsed as Record<string, unknown>;
    }
  }

  const name = metadata.name === undefined ? options.defaultName : String(metadata.name);
  const keywords = metadata.triggers ?? [];
  if (!Array.isArray(keywords) || keywords.some((keyword) => typeof keyword !== 'string')) {
    throw new InvalidSkillError(options.path, "'triggers' must be a list of strings");
  }
  const triggers = [...(keywords as string[])];
  let trigger: unknown = null;
  if ('inputs' in metadata) {
    if (!Array.isArray(metadata.inputs)) throw new InvalidSkillError(options.path, "'inputs' must be a list");
    if (!triggers.includes(`/${name}`)) triggers.push(`/${name}`);
    trigger = { type: 'task', triggers };
  } else if (triggers.length > 0) {
    trigger = { type: 'keyword', keywords: triggers };
  }
  const description = metadata.description;
  const disableModelInvocation = metadata['disable-model-invocation'] ?? metadata.disable_model_invocation;
  if (disableModelInvocation !== undefined && typeof disableModelInvocation !== 'boolean') {
    throw new InvalidSkillError(options.path, "'disable-model-invocation' must be true or false");
  }
  const parsed = skillSchema.safeParse({
    name,
    content,
    trigger,
    source: options.path,
    ...(typeof description === 'string' ? { description } : {}),
    ...(options.agentSkillsFormat === true ? { is_agentskills_format: true } : {}),
    ...(disableModelInvocation === undefined ? {} : { disable_model_invocation: disableModelInvocation }),
  });
  if (!parsed.success) {
    throw new InvalidSkillError(options.path, parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  return parsed.data;
}

function basename(path: string): string {
  return path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
}
