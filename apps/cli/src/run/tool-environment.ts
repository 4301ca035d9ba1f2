import type { ToolEnvironment } from '@x/agent';
import { UsageError } from '../errors/usage-error.js';

/**
 * What the agent's shell inherits: the library's minimal default plus `--env` names, and `--env NAME=VALUE`
 * values. The CLI's own environment (OPENAI_API_KEY, cloud credentials, ...) is never passed wholesale.
 */
export function toolEnvironment(agentModule: typeof import('@x/agent'), entries: readonly string[]): ToolEnvironment {
  const inherit = [...agentModule.defaultInheritedVariables];
  const values: [string, string][] = [];
  for (const entry of entries) {
    const at = entry.indexOf('=');
    if (at === -1) {
      if (agentModule.isSensitiveVariableName(entry)) {
        throw new UsageError(`--env ${entry}: it looks like a credential, and credentials are never copied.`, {
          hint: `Pass the value explicitly if the agent needs it: --env ${entry}=…`,
        });
      }
      inherit.push(entry);
    } else {
      values.push([entry.slice(0, at), entry.slice(at + 1)]);
    }
  }
  // Object.fromEntries defines each name as an own key: `set[name] = value` would drop `--env __proto__=…` (a legal
  // variable name) by setting the object's prototype. A repeated name keeps its last value, as assignment would.
  return { inherit, set: Object.fromEntries(values) };
}

/** The built-in tools a counterfactual fork keeps (`x fork --tools`). */
export function forkTools(agentModule: typeof import('@x/agent'), names: readonly string[], env: string[]) {
  const tools = agentModule.defaultTools({ toolEnvironment: toolEnvironment(agentModule, env) });
  return tools.filter((tool) => names.includes(tool.name));
}
