export {
  type AgentContextOptions,
  agentContextJsonSchema,
  agentContextToJSON,
  parseAgentContext,
} from './agent-context.js';
export {
  availableSkillsPrompt,
  availableSkillsXml,
  isInvocableAgentSkill,
  listedSkills,
} from './available-skills.js';
export { InvalidSkillError } from './invalid-skill-error.js';
export {
  defaultUserSkillsDir,
  type LoadedSkills,
  loadProjectSkills,
  loadSkillsFromDir,
  loadUserSkills,
  PROJECT_SKILL_DIRS,
} from './load-skills.js';
export { type ParseSkillFileOptions, parseSkillFile, THIRD_PARTY_SKILL_FILES } from './parse-skill-file.js';
export {
  createSkill,
  keywordTriggerSchema,
  matchSkillTrigger,
  type Skill,
  type SkillInput,
  type SkillTrigger,
  skillKeywords,
  skillSchema,
  skillTriggerSchema,
  taskTriggerSchema,
} from './skill.js';
export { activateSkills, repoContextPrompt, type SkillActivation } from './skill-prompts.js';
export { SkillSet } from './skill-set.js';
