import { applyEvent, type ConversationState, initialConversationState } from '@x/agent';
import { type AnyEvent, getEventError, getEventText, observationText } from '@x/events';
import type {
  A2aArtifact,
  A2aMessage,
  A2aPart,
  A2aStreamResponse,
  A2aTask,
  A2aTaskState,
  A2aTaskStatus,
} from './a2a-types.js';
import type { MessageParts } from './message-parts.js';

/** The id of the one artifact a task has: the agent's final response. */
export const RESPONSE_ARTIFACT_ID = 'response';

/**
 * A conversation's `execution_status` as an A2A task state. `paused` is `canceled`: `CancelTask` pauses the
 * conversation, and a pause by other means (the REST API, the viewer) is a cancellation as seen from A2A.
 */
export function taskStateOf(status: string): A2aTaskState {
  switch (status) {
    case 'running':
      return 'TASK_STATE_WORKING';
    case 'finished':
      return 'TASK_STATE_COMPLETED';
    case 'waiting_for_confirmation':
      return 'TASK_STATE_INPUT_REQUIRED';
    case 'paused':
      return 'TASK_STATE_CANCELED';
    case 'error':
    case 'stuck':
    case 'deleting':
      return 'TASK_STATE_FAILED';
    default:
      return 'TASK_STATE_SUBMITTED';
  }
}

/** States after which a task's stream ends and `SubscribeToTask` is refused. */
export function isFinalState(state: A2aTaskState): boolean {
  return state === 'TASK_STATE_COMPLETED' || state === 'TASK_STATE_FAILED' || state === 'TASK_STATE_CANCELED';
}

function finishMessage(argumentsJson: string): string {
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    const message = (parsed as { message?: unknown } | null)?.message;
    return typeof message === 'string' ? message : '';
  } catch {
    return '';
  }
}

interface PendingCall {
  name: string;
  arguments: string;
}

/**
 * A task folded from a conversation's log, one event at a time (`apply`), pure: the same events give the same
 * task and the same stream. The task is the conversation (its id is the task id and the context id). `apply`
 * returns the stream items an event stands for: agent messages, tool calls and their results are `working`
 * status updates carrying an agent message; a change of `execution_status` is a status update of the mapped
 * state, preceded, when the task completes, by the final response as the `response` artifact; an error recorded
 * once the task failed is a failed status update carrying it. Each update's `metadata.logIndex` is the log index of
 * the event it comes from.
 */
export class TaskProjection {
  readonly taskId: string;
  #state: ConversationState;
  #history: A2aMessage[] = [];
  #finalText: string | undefined;
  #lastAgentText: string | undefined;
  #lastError: string | undefined;
  #pending = new Map<string, PendingCall>();
  #length = 0;
  #updatedAt: string | undefined;

  readonly #parts: MessageParts;

  /** `parts`: the parts of messages recorded with data parts, by event id (message-parts.ts), shown in the history. */
  constructor(taskId: string, parts: MessageParts = {}) {
    this.taskId = taskId;
    this.#parts = parts;
    this.#state = initialConversationState({ id: taskId });
  }

  get #status(): string {
    return this.#state.execution_status;
  }

  /**
   * The conversation's status as a task state, and nothing else: every face and the REST API see one status, so a
   * message another face adds to a failed or canceled conversation without running it leaves the task ended, as the
   * conversation is, and `CancelTask`, `GetTask` and `ListTasks` agree with the conversation.
   */
  get state(): A2aTaskState {
    return taskStateOf(this.#status);
  }

  /** The final response: the `finish` tool's message, or else the last agent message. */
  get finalText(): string | undefined {
    return this.#finalText ?? this.#lastAgentText;
  }

  /**
   * Folds one log event in and returns what it stands for in a stream: its own update (with the state before
   * it), then, when it changes the task's state (the agent's own status reducer decides), the new status,
   * preceded by the response artifact when the task completes.
   */
  apply(event: AnyEvent, index: number): A2aStreamResponse[] {
    this.#length = index + 1;
    this.#updatedAt = utcTimestamp(event.timestamp) ?? this.#updatedAt;
    const before = this.state;
    const items = this.#itemsOf(event, index);
    this.#state = applyEvent(this.#state, event);
    const state = this.state;
    if (state === before) return items;
    // A new run: why an earlier one failed is not why this one may.
    if (state === 'TASK_STATE_WORKING') this.#lastError = undefined;
    const artifact = state === 'TASK_STATE_COMPLETED' ? this.#artifact() : undefined;
    if (artifact !== undefined) {
      items.push({
        artifactUpdate: { taskId: this.taskId, contextId: this.taskId, artifact, append: false, lastChunk: true },
      });
    }
    items.push(this.#statusUpdate(index));
    return items;
  }

  #itemsOf(event: AnyEvent, index: number): A2aStreamResponse[] {
    switch (event.kind) {
      case 'MessageEvent': {
        const text = getEventText(event);
        if (text === '') return [];
        const role = event.source === 'user' ? 'ROLE_USER' : 'ROLE_AGENT';
        const kept = role === 'ROLE_USER' ? this.#parts[event.id] : undefined;
        const message = this.#message(event.id, role, kept === undefined ? [{ text }] : [...kept]);
        this.#history.push(message);
        if (role === 'ROLE_USER') {
          // A new turn: the response of an earlier one is not this one's.
          this.#finalText = undefined;
          this.#lastAgentText = undefined;
          return [];
        }
        this.#lastAgentText = text;
        return [this.#update(index, message)];
      }
      case 'ActionEvent': {
        const thought = getEventText(event);
        const call = { name: event.tool_name, arguments: event.tool_call.arguments };
        this.#pending.set(event.tool_call_id, call);
        if (event.tool_name === 'finish') this.#finalText = finishMessage(call.arguments);
        const parts: A2aPart[] = [
          ...(thought === '' ? [] : [{ text: thought }]),
          { data: { toolCall: { id: event.tool_call_id, ...call } }, mediaType: 'application/json' },
        ];
        return [this.#update(index, this.#message(event.id, 'ROLE_AGENT', parts))];
      }
      case 'ObservationEvent':
        return [this.#result(index, event.id, event.tool_call_id, observationText(event.observation))];
      case 'UserRejectObservation':
        return [this.#result(index, event.id, event.tool_call_id, `Action rejected: ${event.rejection_reason}`)];
      case 'AgentErrorEvent':
        return [this.#result(index, event.id, event.tool_call_id, getEventError(event)?.message ?? event.error)];
      case 'ConversationErrorEvent':
      case 'ServerErrorEvent': {
        const error = getEventError(event)?.message ?? '';
        // An error without a detail says nothing the failed status does not already say.
        if (error === '') return [];
        this.#lastError = error;
        // The log records the change to `error` before the error itself, so the failed status sent for that change
        // could only say the status: this update, still failed, tells a streaming client why.
        return this.state === 'TASK_STATE_FAILED' ? [this.#statusUpdate(index)] : [];
      }
      default:
        return [];
    }
  }

  /**
   * The task as the events applied so far leave it; `historyLength` keeps the last messages only. Its status is
   * stamped with the time of the latest event applied (ISO 8601, UTC), if it had one. With `runStarting`, the caller
   * has just started a run on it: a task the log has ended (failed, canceled) is submitted again, without the old
   * reason, since the run's own updates follow (a stream that opened with an ended task would tell its client that
   * nothing does).
   */
  task(options: { historyLength?: number; includeArtifacts?: boolean; runStarting?: boolean } = {}): A2aTask {
    const reopened = options.runStarting === true && isFinalState(this.state);
    const artifact = this.state === 'TASK_STATE_COMPLETED' && !reopened ? this.#artifact() : undefined;
    const { historyLength } = options;
    const status: A2aTaskStatus = reopened ? { state: 'TASK_STATE_SUBMITTED' } : this.#status_();
    return {
      id: this.taskId,
      contextId: this.taskId,
      status: { ...status, ...(this.#updatedAt === undefined ? {} : { timestamp: this.#updatedAt }) },
      artifacts: artifact === undefined || options.includeArtifacts === false ? [] : [artifact],
      history:
        historyLength === undefined
          ? [...this.#history]
          : historyLength <= 0
            ? []
            : this.#history.slice(-historyLength),
      metadata: { logLength: this.#length, executionStatus: this.#status },
    };
  }

  #artifact(): A2aArtifact | undefined {
    const text = this.finalText;
    if (text === undefined || text === '') return undefined;
    return {
      artifactId: RESPONSE_ARTIFACT_ID,
      name: 'response',
      description: "The agent's final response",
      parts: [{ text }],
    };
  }

  /** The status, with a message saying why where the state alone does not: a failure, a confirmation. */
  #status_(): A2aTaskStatus {
    const state = this.state;
    let text: string | undefined;
    if (state === 'TASK_STATE_FAILED') text = this.#lastError ?? `The conversation ended with status '${this.#status}'`;
    if (state === 'TASK_STATE_INPUT_REQUIRED') {
      const calls = [...this.#pending.values()].map((call) => `${call.name} ${call.arguments}`);
      text = `Confirm running: ${calls.join('; ')}. Answer with a message whose metadata.confirmation is { "approved": true } or { "approved": false, "reason": "…" }.`;
    }
    return {
      state,
      ...(text === undefined
        ? {}
        : { message: this.#message(`${this.taskId}-status-${this.#length}`, 'ROLE_AGENT', [{ text }]) }),
    };
  }

  /** The task's status now, as the update for the event at `index`. */
  #statusUpdate(index: number): A2aStreamResponse {
    return {
      statusUpdate: {
        taskId: this.taskId,
        contextId: this.taskId,
        status: this.#status_(),
        metadata: { logIndex: index },
      },
    };
  }

  #result(index: number, id: string, toolCallId: string, content: string): A2aStreamResponse {
    const call = this.#pending.get(toolCallId);
    this.#pending.delete(toolCallId);
    const result = { toolCallId, ...(call === undefined ? {} : { name: call.name }), content };
    return this.#update(
      index,
      this.#message(id, 'ROLE_AGENT', [{ data: { toolResult: result }, mediaType: 'application/json' }]),
    );
  }

  #message(messageId: string, role: A2aMessage['role'], parts: A2aPart[]): A2aMessage {
    return { messageId, contextId: this.taskId, taskId: this.taskId, role, parts };
  }

  #update(index: number, message: A2aMessage): A2aStreamResponse {
    return {
      statusUpdate: {
        taskId: this.taskId,
        contextId: this.taskId,
        status: { state: this.state, message },
        metadata: { logIndex: index },
      },
    };
  }
}

/**
 * An event's timestamp (the log's naive local time, `YYYY-MM-DDTHH:MM:SS.ffffff`) as A2A wants it: ISO 8601 in
 * UTC with milliseconds. Undefined for one that does not read as a time.
 */
export function utcTimestamp(timestamp: string): string | undefined {
  const zoned = /(?:Z|[+-]\d{2}:?\d{2})$/.test(timestamp);
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d{1,3})?\d*/.exec(timestamp);
  if (match === null) return undefined;
  // Without a zone the log's time is the server's local time, which is how Date reads a zoneless date-time.
  const date = new Date(zoned ? timestamp : `${match[1]}${match[2] ?? ''}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** A projection of the given events (a log's first events, in order). */
export function projectTask(taskId: string, events: readonly AnyEvent[], parts: MessageParts = {}): TaskProjection {
  const projection = new TaskProjection(taskId, parts);
  for (const [index, event] of events.entries()) projection.apply(event, index);
  return projection;
}
