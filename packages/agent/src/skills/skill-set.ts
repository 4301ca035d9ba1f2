import type { Message } from '@x/events';
import type { AgentContextOptions } from './agent-context.js';
import { agentContextToJSON } from './agent-context.js';
import { availableSkillsPrompt, isInvocableAgentSkill, listedSkills } from './available-skills.js';
import type { InvalidSkillError } from './invalid-skill-error.js';
import { loadProjectSkills, loadUserSkills } from './load-skills.js';
import { type Skill, skillSchema } from './skill.js';
import { activateSkills, repoContextPrompt, type SkillActivation } from './skill-prompts.js';

/**
 * The skills of one agent: those given in code, plus (when `loadProjectSkills`) those of the workspace and (when
 * `loadUserSkills`) the user's own, loaded once by `load`; of one name, a given skill wins over the workspace's, which
 * wins over the user's. Always-on legacy skills feed the system prompt, triggered ones the user messages, and
 * AgentSkills-format ones are listed for `invoke_skill` to load on demand.
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

  /** Loads the workspace's and the user's skills (as configured); returns the files that could not be read. */
  async load(workspace: string): Promise<InvalidSkillError[]> {
    const errors: InvalidSkillError[] = [];
    const names = new Set(this.#skills.map((skill) => skill.name));
    const add = (loaded: { skills: Skill[]; errors: InvalidSkillError[] }) => {
      this.#skills = [...this.#skills, ...loaded.skills.filter((skill) => !names.has(skill.name))];
      for (const skill of loaded.skills) names.add(skill.name);
      errors.push(...loaded.errors);
    };
    if (this.options.loadProjectSkills === true) add(await loadProjectSkills(workspace));
    if (this.options.loadUserSkills === true) {
      add(await loadUserSkills(this.options.userSkillsDirs));
    }
    return errors;
  }

  /** Whether a skill is there for `invoke_skill` to load (an AgentSkills-format one whose invocation is allowed). */
  get hasInvocableSkills(): boolean {
    return this.#skills.some(isInvocableAgentSkill);
  }

  /**
   * Text for the system prompt's dynamic context: the `<REPO_CONTEXT>` block, the `<SKILLS>` block and the system
   * message suffix.
   */
  systemContext(): string | undefined {
    // Listed only when the agent offers `invoke_skill`, which it does when an invocable AgentSkills skill is loaded.
    const available = this.hasInvocableSkills ? availableSkillsPrompt(listedSkills(this.#skills)) : undefined;
    const parts = [
      repoContextPrompt(this.#skills),
      available,
      this.options.systemMessageSuffix?.trim() || undefined,
    ].filter((part): part is string => part !== undefined);
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
