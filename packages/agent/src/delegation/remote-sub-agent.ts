/** A sub-agent that runs somewhere else (another server, another framework), reached through a protocol. */
export interface RemoteSubAgent {
  /**
   * Sends one task and resolves with the remote agent's final answer. Later tasks continue the same exchange
   * (the remote keeps the context). Rejects when the remote fails the task; aborts with `signal`.
   */
  send(task: string, options: { signal?: AbortSignal | undefined }): Promise<string>;
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
