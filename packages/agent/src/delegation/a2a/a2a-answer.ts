/** The parts of a stream item this module reads (structurally the `@a2a-js/sdk` v1.0 types, without importing them). */
interface A2aPart {
  content?: { $case: string; value: unknown } | undefined;
}
/** A2A metadata (a protobuf Struct, as JSON). */
type A2aMetadata = Record<string, unknown> | undefined;
interface A2aMessage {
  taskId?: string;
  contextId?: string;
  parts: A2aPart[];
  metadata?: A2aMetadata;
}
interface A2aStatus {
  state: number;
  message?: A2aMessage | undefined;
}
interface A2aArtifact {
  artifactId: string;
  parts: A2aPart[];
}
/** One `StreamResponse.payload` (or `SendMessageResponse.payload`). */
export type A2aStreamItem =
  | {
      $case: 'task';
      value: {
        id: string;
        contextId: string;
        status?: A2aStatus | undefined;
        artifacts: A2aArtifact[];
        metadata?: A2aMetadata;
      };
    }
  | { $case: 'message'; value: A2aMessage }
  | {
      $case: 'statusUpdate';
      value: { taskId: string; contextId: string; status?: A2aStatus | undefined; metadata?: A2aMetadata };
    }
  | {
      $case: 'artifactUpdate';
      value: { taskId: string; contextId: string; artifact?: A2aArtifact | undefined; append: boolean };
    }
  | undefined;

/** `TaskState` numbers of A2A v1.0 (`a2a.proto`). */
export const TASK_STATE = {
  submitted: 1,
  working: 2,
  completed: 3,
  failed: 4,
  canceled: 5,
  inputRequired: 6,
  rejected: 7,
  authRequired: 8,
} as const;

const STATE_NAMES: Record<number, string> = Object.fromEntries(
  Object.entries(TASK_STATE).map(([name, value]) => [value, name]),
);

/** What a streamed exchange came to: the task (if any), its last state, and the texts to answer with. */
export interface A2aOutcome {
  taskId: string | undefined;
  contextId: string | undefined;
  /** The last state seen, by name (`completed`, `failed`, ...); `message` when the agent answered with a message. */
  state: string;
  /** Text of the artifacts, in the order they first appeared. */
  artifactText: string;
  /** Text of the last status message, or of the agent's direct message. */
  messageText: string;
  /** The last `metadata.usage` the task, a status update or the message carried (unvalidated). */
  usage: unknown;
}

export function partsText(parts: readonly A2aPart[]): string {
  return parts
    .map((part) => (part.content?.$case === 'text' ? String(part.content.value) : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/**
 * Folds the items of one A2A stream into its outcome: the task and context ids, the last status, artifacts
 * assembled as A2A says (an update with `append` extends the artifact, otherwise replaces it), and the last
 * status message. Pure: tested on its own, used on the SDK client's stream.
 */
export function foldA2aStream(items: Iterable<A2aStreamItem>): A2aOutcome {
  const outcome: A2aOutcome = {
    taskId: undefined,
    contextId: undefined,
    state: 'submitted',
    artifactText: '',
    messageText: '',
    usage: undefined,
  };
  const noteUsage = (metadata: A2aMetadata): void => {
    if (metadata?.usage !== undefined) outcome.usage = metadata.usage;
  };
  const artifacts = new Map<string, string>();
  const setStatus = (status: A2aStatus | undefined): void => {
    if (status === undefined) return;
    outcome.state = STATE_NAMES[status.state] ?? `state ${status.state}`;
    if (status.message !== undefined) outcome.messageText = partsText(status.message.parts);
  };
  for (const item of items) {
    if (item === undefined) continue;
    switch (item.$case) {
      case 'task':
        outcome.taskId = item.value.id;
        outcome.contextId = item.value.contextId;
        for (const artifact of item.value.artifacts) artifacts.set(artifact.artifactId, partsText(artifact.parts));
        setStatus(item.value.status);
        noteUsage(item.value.metadata);
        break;
      case 'message':
        outcome.contextId = item.value.contextId || outcome.contextId;
        outcome.state = 'message';
        outcome.messageText = partsText(item.value.parts);
        noteUsage(item.value.metadata);
        break;
      case 'statusUpdate':
        outcome.taskId = item.value.taskId;
        outcome.contextId = item.value.contextId;
        setStatus(item.value.status);
        noteUsage(item.value.metadata);
        break;
      case 'artifactUpdate': {
        outcome.taskId = item.value.taskId;
        outcome.contextId = item.value.contextId;
        const artifact = item.value.artifact;
        if (artifact === undefined) break;
        const text = partsText(artifact.parts);
        const before = item.value.append ? (artifacts.get(artifact.artifactId) ?? '') : '';
        artifacts.set(artifact.artifactId, before + text);
        break;
      }
    }
  }
  outcome.artifactText = [...artifacts.values()].filter((text) => text !== '').join('\n');
  return outcome;
}

/** Whether the task is over for good: a later message starts a new task (in the same context). */
export function isTerminalState(state: string): boolean {
  return (
    state === 'completed' || state === 'failed' || state === 'canceled' || state === 'rejected' || state === 'message'
  );
}
