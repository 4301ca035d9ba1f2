import type { Action, Observation } from '@x/events';
import { z } from 'zod';
import { maskStrings } from '../secrets/internal/mask-strings.js';
import type { Tool, ToolAnnotations, ToolContext } from '../tools/tool.js';
import type { McpConnection } from './internal/mcp-connection.js';
import type { McpToolDescriptor } from './internal/mcp-tool-descriptor.js';
import { errorObservation, MCP_OBSERVATION_KIND, observationFromCallResult } from './mcp-observation.js';
import { McpServerError } from './mcp-server-error.js';

/** The reference's kinds: actions are `MCPToolAction{data}`, tools `MCPToolDefinition` with their `mcp_tool`. */
export const MCP_ACTION_KIND = 'MCPToolAction';
export const MCP_TOOL_KIND = 'MCPToolDefinition';

/**
 * A tool of an MCP server as the model sees it: the server's own name, description and JSON Schema (reference
 * `MCPToolDefinition`). Arguments are validated against that schema; a failing server gives an error observation.
 */
export function createMcpTool(descriptor: McpToolDescriptor, connection: McpConnection): Tool {
  const name = descriptor.name;
  const annotations = annotationsOf(descriptor);
  const inputSchema = { ...descriptor.inputSchema } as Record<string, unknown>;

  // Whatever the server answers is masked with its config's secrets (a header or token it echoes back).
  const run = async (args: Record<string, unknown>, context: ToolContext): Promise<Observation> =>
    maskStrings(await call(args, context), (text) => connection.hide(text));

  const call = async (args: Record<string, unknown>, context: ToolContext): Promise<Observation> => {
    try {
      const result = await connection.callTool(name, args, context.signal);
      return observationFromCallResult(name, result);
    } catch (error) {
      if (error instanceof McpServerError && error.code === 'mcp_timeout' && error.during === 'call') {
        return errorObservation(
          name,
          `MCP tool '${name}' timed out after ${connection.server.timeout ?? 300} seconds. The tool server may be unresponsive or the operation is taking too long. Consider retrying or using an alternative approach.`,
        );
      }
      const message = error instanceof Error ? error.message : String(error);
      return errorObservation(name, `Error calling MCP tool ${name}: ${message}`);
    }
  };

  return Object.freeze({
    name,
    description: descriptor.description ?? 'No description provided',
    parameters: parametersFor(inputSchema),
    annotations,
    actionKind: MCP_ACTION_KIND,
    observationKind: MCP_OBSERVATION_KIND,
    toolKind: MCP_TOOL_KIND,
    readOnly: annotations?.readOnlyHint ?? false,
    inputSchema,
    definitionFields: { ...(descriptor._meta === undefined ? {} : { meta: descriptor._meta }), mcp_tool: descriptor },
    toAction: (args: Record<string, unknown>): Action => ({ data: dropNulls(args), kind: MCP_ACTION_KIND }),
    run: (args: Record<string, unknown>, context: ToolContext) => run(args, context),
    async execute(action: Readonly<Record<string, unknown>>, context: ToolContext): Promise<Observation> {
      const data = action.data;
      if (typeof data !== 'object' || data === null || Array.isArray(data)) {
        return errorObservation(name, `Validation error for MCP tool '${name}' args: 'data' must be an object`);
      }
      return run(data as Record<string, unknown>, context);
    },
  });
}

/** A zod view of the server's JSON Schema (for argument validation); anything it cannot express is let through. */
function parametersFor(inputSchema: Record<string, unknown>): z.ZodObject {
  try {
    const schema = z.fromJSONSchema(inputSchema as Parameters<typeof z.fromJSONSchema>[0]);
    if (schema instanceof z.ZodObject) return schema;
  } catch {
    // Schemas zod cannot read are validated by the server itself.
  }
  return z.looseObject({});
}

function annotationsOf(descriptor: McpToolDescriptor): ToolAnnotations | undefined {
  const raw = descriptor.annotations;
  if (raw === undefined) return undefined;
  const annotations: ToolAnnotations = {};
  if (typeof raw.title === 'string') annotations.title = raw.title;
  if (typeof raw.readOnlyHint === 'boolean') annotations.readOnlyHint = raw.readOnlyHint;
  if (typeof raw.destructiveHint === 'boolean') annotations.destructiveHint = raw.destructiveHint;
  if (typeof raw.idempotentHint === 'boolean') annotations.idempotentHint = raw.idempotentHint;
  if (typeof raw.openWorldHint === 'boolean') annotations.openWorldHint = raw.openWorldHint;
  return annotations;
}

function dropNulls(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== null));
}
