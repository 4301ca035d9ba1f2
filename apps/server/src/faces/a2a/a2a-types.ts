/**
 * The A2A v1.0 objects this face sends, in their JSON form (the protobuf JSON mapping `@a2a-js/sdk` 1.x reads:
 * camelCase fields, enums as their names, a part's kind given by which of `text`/`data` it has). Plain JSON
 * types: the face depends on no A2A package at run time.
 */

/** The A2A protocol version this face speaks (the `A2A-Version` of its JSON-RPC interface). */
export const A2A_PROTOCOL_VERSION = '1.0';

export type A2aTaskState =
  | 'TASK_STATE_SUBMITTED'
  | 'TASK_STATE_WORKING'
  | 'TASK_STATE_COMPLETED'
  | 'TASK_STATE_FAILED'
  | 'TASK_STATE_CANCELED'
  | 'TASK_STATE_INPUT_REQUIRED'
  | 'TASK_STATE_REJECTED'
  | 'TASK_STATE_AUTH_REQUIRED';

export type A2aPart = { text: string; metadata?: Record<string, unknown> } | { data: unknown; mediaType?: string };

export interface A2aMessage {
  messageId: string;
  contextId: string;
  taskId: string;
  role: 'ROLE_USER' | 'ROLE_AGENT';
  parts: A2aPart[];
  metadata?: Record<string, unknown>;
}

export interface A2aTaskStatus {
  state: A2aTaskState;
  message?: A2aMessage;
  timestamp?: string;
}

export interface A2aArtifact {
  artifactId: string;
  name: string;
  description?: string;
  parts: A2aPart[];
}

export interface A2aTask {
  id: string;
  contextId: string;
  status: A2aTaskStatus;
  artifacts: A2aArtifact[];
  history: A2aMessage[];
  metadata?: Record<string, unknown>;
}

export interface A2aStatusUpdate {
  taskId: string;
  contextId: string;
  status: A2aTaskStatus;
  metadata?: Record<string, unknown>;
}

export interface A2aArtifactUpdate {
  taskId: string;
  contextId: string;
  artifact: A2aArtifact;
  append: boolean;
  lastChunk: boolean;
}

/** One item of a stream (`StreamResponse`): exactly one of its fields. */
export type A2aStreamResponse =
  | { task: A2aTask }
  | { statusUpdate: A2aStatusUpdate }
  | { artifactUpdate: A2aArtifactUpdate };
