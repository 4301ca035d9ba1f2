import type { Message } from '@x/events';
import type { AgentContextOptions } from './agent-context.js';
import { agentContextToJSON } from './agent-context.js';
import type { InvalidSkillError } from './invalid-skill-error.js';
import { loadProjectSkills } from './load-skills.js';
import { type Skill, skillSchema } from './skill.js';
import { activateSkills, repoContextPrompt, type SkillActivation } from './skill-prompts.js';

/**
 * The skills of one agent: those given in code, plus (when `loadProjectSkills`) those of the workspace, loaded once
 * by `load`. Always-on skills feed the system prompt, triggered ones the user messages.
 */
export class SkillSet {
  readonly options: AgentContextOptions;
  #skills: Skill[];

  constructor(options: AgentContextOptions) {
    this.options = options;
    this.#skills = (options.skills ?? []).map((skill) => skillSchema.parse(skill));
  }

  get skills(): readonly Skill[] {
    return this.#skills;
  }

  /** Loads the workspace's skills (when configured); returns the files that could not be read. */
  async load(workspace: string): Promise<InvalidSkillError[]> {
    if (this.options.loadProjectSkills !== true) return [];
    const loaded = await loadProjectSkills(workspace);
    const given = new Set(this.#skills.map((skill) => skill.name));
    this.#skills = [...this.#skills, ...loaded.skills.filter((skill) => !given.has(skill.name))];
    return loaded.errors;
  }

  /** Text for the system prompt's dynamic context: the `<REPO_CONTEXT>` block and the system message suffix. */
  systemContext(): string | undefined {
    const parts = [repoContextPrompt(this.#skills), this.options.systemMessageSuffix?.trim() || undefined].filter(
      (part): part is string => part !== undefined,
    );
    return parts.length === 0 ? undefined : parts.join('\n\n');
  }

  /** The skills a user message activates (`skip`: those already activated in the conversation). */
  activate(message: Message, skip: Iterable<string>): SkillActivation {
    const text = message.content
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('\n');
    return activateSkills(this.#skills, text, {
      skip,
      ...(this.options.userMessageSuffix === undefined ? {} : { suffix: this.options.userMessageSuffix }),
    });
  }

  toJSON(): Record<string, unknown> {
    return agentContextToJSON(this.options, this.#skills);
  }
}
