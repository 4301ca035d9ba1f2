import type { Action, Observation } from '@x/events';
import { MCP_OBSERVATION_KIND } from '../mcp/mcp-observation.js';
import { MCP_ACTION_KIND, MCP_TOOL_KIND } from '../mcp/mcp-tool.js';
import { inputJsonSchemaFor, strictSchemaFor } from '../tools/internal/tool-json-schema.js';
import { type Tool, type ToolAnnotations, type ToolContext, textContent } from '../tools/tool.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';
import { recallFromHistory } from './recall-history.js';
import { DEFAULT_RECALL_LIMITS, type RecallLimits } from './recall-limits.js';
import { type RecallParameters, recallParameters } from './recall-parameters.js';

export const RECALL_TOOL_NAME = 'recall';

export interface RecallToolOptions {
  /** Size caps of one recall (defaults `DEFAULT_RECALL_LIMITS`: 10 events, 2,000 characters each, 8,000 in all). */
  limits?: Partial<RecallLimits>;
}

const description =
  'Re-read events of this conversation that were condensed out of your context (replaced by a summary). ' +
  'Use it when a summary lost a detail you need: search the forgotten events by text (`query`), or re-read ' +
  'events by id (`event_ids`) or by log index range (`start_index`, `end_index`, inclusive). Give exactly one ' +
  'of the three. Results are bounded in size; when something is left out the result says what and how to get it.';

const annotations: ToolAnnotations = {
  title: 'recall',
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/**
 * The `recall` tool: searches and re-reads the events condensation forgot (they stay in the log). It is written in
 * the reference's MCP tool shape (`MCPToolDefinition` / `MCPToolAction{data}` / `MCPToolObservation`), the one
 * tool shape whose name and arguments the reference's models accept for any tool, so the OpenHands SDK still
 * loads conversations that used it. Needs the conversation's history (`ToolContext.conversation.activeBranch`).
 */
export function createRecallTool(options: RecallToolOptions = {}): Tool<RecallParameters> {
  const limits: RecallLimits = { ...DEFAULT_RECALL_LIMITS, ...options.limits };
  const inputSchema = inputJsonSchemaFor(recallParameters);
  const validator = strictSchemaFor(recallParameters);

  const run = async (args: RecallParameters, context: ToolContext): Promise<Observation> => {
    const activeBranch = context.conversation?.activeBranch;
    if (activeBranch === undefined) {
      throw new ToolExecutionError(RECALL_TOOL_NAME, 'recall only runs inside a conversation (no history to read).');
    }
    const result = recallFromHistory(await activeBranch(), args, limits);
    return {
      content: [textContent(result.text)],
      is_error: false,
      tool_name: RECALL_TOOL_NAME,
      kind: MCP_OBSERVATION_KIND,
    };
  };

  return Object.freeze({
    name: RECALL_TOOL_NAME,
    description,
    parameters: recallParameters,
    annotations: Object.freeze({ ...annotations }),
    actionKind: MCP_ACTION_KIND,
    observationKind: MCP_OBSERVATION_KIND,
    toolKind: MCP_TOOL_KIND,
    readOnly: true,
    inputSchema,
    definitionFields: {
      mcp_tool: { name: RECALL_TOOL_NAME, description, inputSchema, annotations },
    },
    toAction: (args: Record<string, unknown>): Action => ({ data: args, kind: MCP_ACTION_KIND }),
    run,
    async execute(action: Readonly<Record<string, unknown>>, context: ToolContext): Promise<Observation> {
      const parsed = validator.safeParse(action.data);
      if (!parsed.success) {
        const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || 'data'}: ${issue.message}`);
        throw new ToolExecutionError(RECALL_TOOL_NAME, `Invalid arguments for tool 'recall': ${problems.join('; ')}`, {
          cause: parsed.error,
        });
      }
      return run(parsed.data as RecallParameters, context);
    },
  });
}

/**
 * The tools an agent gets: `tools`, plus `recall` when a condenser is configured, unless `recall` is false or a
 * tool of that name is already there.
 */
export function withRecallTool(
  tools: readonly Tool[],
  options: { condenser?: unknown; recall?: boolean | RecallToolOptions },
): Tool[] {
  const { recall } = options;
  const wanted = recall === undefined ? options.condenser !== undefined : recall !== false;
  if (recall === false || !wanted || tools.some((tool) => tool.name === RECALL_TOOL_NAME)) return [...tools];
  return [...tools, createRecallTool(typeof recall === 'object' ? recall : {})];
}
