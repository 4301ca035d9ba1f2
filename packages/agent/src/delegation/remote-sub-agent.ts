import { z } from 'zod';

/**
 * What one remote task reports it spent (A2A: the task's, its status update's or its message's `metadata.usage`).
 * Counted against the delegating conversation's budgets as the usage id `delegate:<id>`.
 */
export const remoteUsageSchema = z.object({
  /** Dollars the task cost. Without it, tokens are counted at an unknown cost (never $0: see budgets). */
  costUsd: z.number().finite().nonnegative().optional(),
  promptTokens: z.number().int().nonnegative().optional(),
  completionTokens: z.number().int().nonnegative().optional(),
});
export type RemoteUsage = z.infer<typeof remoteUsageSchema>;

/** A remote agent's answer to one task, with what the task reported it spent. */
export interface RemoteAnswer {
  text: string;
  usage?: RemoteUsage | undefined;
}

/** A sub-agent that runs somewhere else (another server, another framework), reached through a protocol. */
export interface RemoteSubAgent {
  /**
   * Sends one task and resolves with the remote agent's final answer (a string, or the answer with the usage the
   * remote reported). Later tasks continue the same exchange (the remote keeps the context). Rejects when the
   * remote fails the task; aborts with `signal`.
   */
  send(task: string, options: { signal?: AbortSignal | undefined }): Promise<string | RemoteAnswer>;
  close?(): Promise<void>;
}

/** A kind of sub-agent the `delegate` tool spawns as a connection to a remote agent instead of a child conversation. */
export interface RemoteSubAgentType {
  /** Shown to the model in the tool description. */
  description?: string;
  /** Opens one spawned sub-agent's connection (each spawned id gets its own exchange with the remote). */
  connect(): Promise<RemoteSubAgent>;
}

export function isRemoteSubAgentType(type: object): type is RemoteSubAgentType {
  return typeof (type as { connect?: unknown }).connect === 'function';
}
