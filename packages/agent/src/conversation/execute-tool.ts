import { randomUUID } from 'node:crypto';
import { type AnyEvent, createEvent, type Observation } from '@x/events';
import { executeActions } from '../agent/execute-actions.js';
import type { StepContext } from '../agent/step-context.js';
import { parseToolCall } from '../tools/parse-tool-call.js';
import type { Tool } from '../tools/tool.js';
import { ToolExecutionError } from '../tools/tool-execution-error.js';
import { InvalidToolCallError } from './errors/invalid-tool-call-error.js';

/** What running a tool outside the loop needs of the conversation. */
export interface ToolRunner {
  readonly tools: readonly Tool[];
  /** A step context for the call (emit, secrets, sandbox, the tool's view of the conversation). */
  stepContext(): StepContext;
  /** Calls `listener` for every event emitted until the returned function is called. */
  watch(listener: (event: AnyEvent) => void): () => void;
  /** Takes a workspace checkpoint: before the tool (the files it starts from) and once it has answered. */
  captureWorkspace?(): Promise<unknown>;
}

/**
 * Runs one tool outside the agent loop (the reference's `execute_tool`), and records it as the loop would: an
 * ActionEvent (its own `llm_response_id`, `x-execute-tool-…`, so it is never batched with a model's calls)
 * and the tool's ObservationEvent, so the model sees on its next step what ran. Unlike the reference's,
 * the call is recorded; like it, confirmation and the security analyzer are not consulted (the caller is
 * the user). Arguments are validated against the tool's schema first: an unknown tool or bad arguments
 * throw `InvalidToolCallError` and record nothing. A tool failure is recorded as the AgentErrorEvent the
 * loop records, and thrown as `ToolExecutionError`.
 */
export async function executeTool(
  runner: ToolRunner,
  toolName: string,
  args: Readonly<Record<string, unknown>>,
): Promise<Observation> {
  const id = `call_x_${randomUUID().replace(/-/g, '')}`;
  const call = { id, name: toolName, arguments: JSON.stringify(args), origin: 'completion' as const };
  const parsed = parseToolCall(call, runner.tools, { securityAnalyzerEnabled: false });
  if (!parsed.ok) throw new InvalidToolCallError(toolName, parsed.error);
  const action = createEvent('ActionEvent', {
    thought: [],
    thinking_blocks: [],
    action: parsed.action,
    tool_name: parsed.tool.name,
    tool_call_id: call.id,
    tool_call: parsed.normalizedCall,
    llm_response_id: `x-execute-tool-${randomUUID()}`,
    security_risk: parsed.securityRisk,
    summary: parsed.summary,
  });
  let answer: AnyEvent | undefined;
  const stop = runner.watch((event) => {
    if ('tool_call_id' in event && event.tool_call_id === call.id && event.kind !== 'ActionEvent') answer = event;
  });
  await runner.captureWorkspace?.();
  try {
    const context = runner.stepContext();
    await context.emit(action);
    await executeActions(context, runner.tools, [action]);
  } finally {
    stop();
  }
  await runner.captureWorkspace?.();
  if (answer?.kind === 'ObservationEvent') return answer.observation;
  const reason = answer?.kind === 'AgentErrorEvent' ? answer.error : `no result was recorded for ${toolName}`;
  throw new ToolExecutionError(toolName, reason);
}
