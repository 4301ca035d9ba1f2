import type { AnyEvent } from '@x/events';
import { agentFinalResponse } from '../delegation/final-response.js';
import { stateAt } from '../state/state-at.js';
import { workspacePath } from './scorers/tool-call-paths.js';

/** One tool call of the agent, in the order it was made. */
export interface EvalToolCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** What scorers see of one conversation (a live run or a recording): derived from its events alone. */
export interface EvalRun {
  /** The task: the first user message. */
  task: string;
  events: readonly AnyEvent[];
  /** `finished`, `error`, `stuck`, `idle`...: the execution status the events lead to. */
  status: string;
  /** The agent's final answer (its last `finish` message, else its last message). */
  finalAnswer: string;
  toolCalls: EvalToolCall[];
  /** Every error the conversation recorded: agent errors, conversation errors, tool observations marked as errors. */
  errors: string[];
  /** Dollars spent on the model, over every usage id (agent, condenser...). */
  costUsd: number;
  /** Seconds from the first to the last event. */
  durationSeconds: number;
  /**
   * Paths the agent wrote through a tool's `path` argument (reads are left out), relative to the workspace as
   * `workspacePath` makes them (a path outside the workspace stays as written).
   */
  filesWritten: string[];
  /** The workspace the conversation ran in, when known. */
  workspace: string | undefined;
}

// file_editor commands that only read.
const READ_COMMANDS = new Set(['view']);

function textOf(event: AnyEvent): string {
  if (event.kind !== 'MessageEvent') return '';
  return event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

function seconds(timestamp: string): number {
  // Reference timestamps carry no zone; both ends are read the same way, so the difference holds.
  return Date.parse(timestamp) / 1000;
}

/** Reads an `EvalRun` from a conversation's events (its workspace, when known, makes paths relative). */
export async function evalRunFromEvents(
  events: readonly AnyEvent[],
  options: { workspace?: string | undefined } = {},
): Promise<EvalRun> {
  const state = await stateAt('eval', events);
  const toolCalls: EvalToolCall[] = [];
  const errors: string[] = [];
  const filesWritten = new Set<string>();
  let task: string | undefined;
  for (const event of events) {
    if (event.kind === 'MessageEvent' && event.source === 'user') task ??= textOf(event);
    if (event.kind === 'ActionEvent' && event.source === 'agent') {
      const args = (event.action ?? {}) as Record<string, unknown>;
      const { kind: _kind, ...callArguments } = args;
      toolCalls.push({ tool: event.tool_name, arguments: callArguments });
      if (typeof args.path === 'string' && !READ_COMMANDS.has(String(args.command))) {
        filesWritten.add(workspacePath(args.path, options.workspace));
      }
    }
    if (event.kind === 'AgentErrorEvent') errors.push(`${event.tool_name}: ${event.error}`);
    if (event.kind === 'ConversationErrorEvent') errors.push(`${event.code}: ${event.detail}`);
    if (event.kind === 'ObservationEvent' && (event.observation as { is_error?: unknown }).is_error === true) {
      errors.push(`${event.tool_name} observation marked as an error`);
    }
  }
  if (state.execution_status === 'error' || state.execution_status === 'stuck') {
    errors.push(`the conversation ended ${state.execution_status}`);
  }
  const costUsd = Object.values(state.stats.usage_to_metrics).reduce(
    (total, metrics) => total + metrics.accumulated_cost,
    0,
  );
  const first = events[0];
  const last = events[events.length - 1];
  return {
    task: task ?? '',
    events,
    status: state.execution_status,
    finalAnswer: await agentFinalResponse(events),
    toolCalls,
    errors,
    costUsd,
    durationSeconds: first && last ? Math.max(0, seconds(last.timestamp) - seconds(first.timestamp)) : 0,
    filesWritten: [...filesWritten],
    workspace: options.workspace,
  };
}
