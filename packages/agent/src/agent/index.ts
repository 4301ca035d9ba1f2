// The public exports of agent/, re-exported by the package root.
export { Agent } from './agent.js';
export { AgentExtensions, type ExtensionsStart } from './agent-extensions.js';
export type { AgentOptions } from './agent-options.js';
export { createAgent, OFFLINE_NOTICE } from './create-agent.js';
export type { CreateAgentOptions } from './create-agent-options.js';
export { MODEL_ENVIRONMENT_VARIABLES, NoModelError } from './errors/no-model-error.js';
export type { StepContext } from './step-context.js';
export { DEFAULT_SYSTEM_PROMPT } from './system-prompt.js';
export { normalizeToolSpecName } from './tool-spec-name.js';
