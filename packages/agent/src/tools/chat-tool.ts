import type { ToolDefinition } from '@x/events';
import { inputJsonSchemaFor, type JsonSchema } from './internal/tool-json-schema.js';
import type { Tool } from './tool.js';

/** An OpenAI Chat Completions function tool (structurally the `openai` package's `ChatCompletionFunctionTool`). */
export interface ChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: JsonSchema };
}

export interface ChatToolOptions {
  /** Add the `security_risk` meta field to non-read-only tools (default true, as the reference always does). */
  withSecurityRisk?: boolean;
}

export const summaryParameterDescription = 'A concise summary (approximately 10 words) of what this action does';

export const securityRiskParameterDescription =
  "The LLM's assessment of the safety risk of this action: LOW for read-only or easily reversible actions, " +
  'MEDIUM for actions that modify the workspace, HIGH for destructive or security-sensitive actions ' +
  '(deleting data, touching credentials, network access to untrusted hosts).';

/**
 * The LLM-facing schema of a tool (§4.1): the JSON Schema of its parameters with `summary` and, for non-read-only
 * tools, `security_risk` moved to the front of `properties`. Neither is required; `kind` never appears.
 */
export function toolToChatTool(tool: Tool, options: ChatToolOptions = {}): ChatTool {
  const schema = (tool.inputSchema as JsonSchema | undefined) ?? inputJsonSchemaFor(tool.parameters);
  const own = (schema.properties ?? {}) as JsonSchema;
  const meta: JsonSchema = {
    summary: own.summary ?? { type: 'string', description: summaryParameterDescription },
  };
  if ((options.withSecurityRisk ?? true) && !tool.readOnly) {
    meta.security_risk = own.security_risk ?? {
      type: 'string',
      enum: ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'],
      description: securityRiskParameterDescription,
    };
  }
  return {
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: { ...schema, type: 'object', properties: { ...meta, ...own } },
    },
  };
}

/** The ToolDefinition JSON a SystemPromptEvent lists (§4.3), key order as the reference writes it. */
export function toolToDefinition(tool: Tool): ToolDefinition {
  const definition: Record<string, unknown> = {
    description: tool.description,
    action_type: tool.actionKind,
    observation_type: tool.observationKind,
  };
  if (tool.annotations !== undefined) {
    const { title, readOnlyHint, destructiveHint, idempotentHint, openWorldHint } = tool.annotations;
    definition.annotations = {
      ...(title === undefined ? {} : { title }),
      readOnlyHint: readOnlyHint ?? false,
      destructiveHint: destructiveHint ?? true,
      idempotentHint: idempotentHint ?? false,
      openWorldHint: openWorldHint ?? true,
    };
  }
  if (tool.definitionFields !== undefined) Object.assign(definition, tool.definitionFields);
  definition.kind = tool.toolKind;
  definition.title = tool.annotations?.title ?? tool.name;
  return definition as ToolDefinition;
}
