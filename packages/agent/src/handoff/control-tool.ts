import type { Action, Observation } from '@x/events';
import type { z } from 'zod';
import { MCP_OBSERVATION_KIND } from '../mcp/mcp-observation.js';
import { MCP_ACTION_KIND, MCP_TOOL_KIND } from '../mcp/mcp-tool.js';
import { inputJsonSchemaFor, strictSchemaFor } from '../tools/internal/tool-json-schema.js';
import { type Tool, type ToolAnnotations, type ToolContext, textContent } from '../tools/tool.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';

/** What a conversation-control tool is: its name, description, arguments and what running it does. */
export interface ControlToolSpec<Schema extends z.ZodObject> {
  name: string;
  description: string;
  parameters: Schema;
  annotations: ToolAnnotations;
  /** Does the tool's work; its text is the observation. Throws `ToolExecutionError` for what the model can fix. */
  run(args: z.output<Schema>, context: ToolContext): Promise<string>;
}

/**
 * A tool the conversation adds (`transfer_to_agent`, `escalate`), written in the reference's MCP tool shape
 * (`MCPToolDefinition` / `MCPToolAction{data}` / `MCPToolObservation`): the one shape whose name and arguments
 * the reference's models accept for any tool, so the OpenHands SDK still loads conversations that used them
 * (as `recall` does).
 */
export function defineControlTool<Schema extends z.ZodObject>(spec: ControlToolSpec<Schema>): Tool<z.output<Schema>> {
  // The JSON schema is built on first use, not when the module defining the tool is imported: `escalate`'s
  // was ~6 ms of every process's import of @x/agent, and most conversations never offer it.
  let inputSchema: ReturnType<typeof inputJsonSchemaFor> | undefined;
  let definitionFields: Readonly<Record<string, unknown>> | undefined;
  const jsonSchema = () => {
    inputSchema ??= inputJsonSchemaFor(spec.parameters);
    return inputSchema;
  };
  const validator = strictSchemaFor(spec.parameters);
  const { name, description, annotations } = spec;
  const run = async (args: z.output<Schema>, context: ToolContext): Promise<Observation> => ({
    content: [textContent(await spec.run(args, context))],
    is_error: false,
    tool_name: name,
    kind: MCP_OBSERVATION_KIND,
  });
  return Object.freeze({
    name,
    description,
    parameters: spec.parameters,
    annotations: Object.freeze({ ...annotations }),
    actionKind: MCP_ACTION_KIND,
    observationKind: MCP_OBSERVATION_KIND,
    toolKind: MCP_TOOL_KIND,
    readOnly: annotations.readOnlyHint ?? false,
    get inputSchema() {
      return jsonSchema();
    },
    get definitionFields() {
      definitionFields ??= { mcp_tool: { name, description, inputSchema: jsonSchema(), annotations } };
      return definitionFields;
    },
    toAction: (args: Record<string, unknown>): Action => ({ data: args, kind: MCP_ACTION_KIND }),
    run,
    async execute(action: Readonly<Record<string, unknown>>, context: ToolContext): Promise<Observation> {
      const parsed = validator.safeParse(action.data);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'data'}: ${issue.message}`);
        throw new ToolExecutionError(name, `Invalid arguments for tool '${name}': ${problems.join('; ')}`, {
          cause: parsed.error,
        });
      }
      return run(parsed.data as z.output<Schema>, context);
    },
  });
}
