import { type Agent, Conversation, type ConversationOptions } from '@x/agent';
import { RemoteConversation, type RemoteCreateOptions } from '@x/client';

/** Where a conversation runs when it runs on a server (`x serve`) instead of in this process. */
export interface ConversationServer {
  url: string;
  /** The server's session key. */
  apiKey?: string;
  /**
   * The agent's LLM as the server should build it (the reference's LLM JSON: `model`, `base_url`, `api_key`...).
   * Default `{ model: agent.llm.model }`: the server supplies the key from its own environment.
   */
  llm?: Record<string, unknown>;
  /** The rest of the remote client's options (reconnect, timeouts...). */
  client?: Omit<RemoteCreateOptions, 'agent' | 'workspace' | 'id' | 'apiKey' | 'onEvent'>;
}

/** The options both kinds share, plus `server` to run remotely and `local` for what only a local one takes. */
export interface OpenConversationOptions {
  agent: Agent;
  /** The working directory (on this machine, or on the server). */
  workspace: string;
  id?: string;
  onEvent?: (event: Parameters<NonNullable<ConversationOptions['onEvent']>>[0], index?: number) => void;
  /** Given: the conversation is created on that server (`RemoteConversation`); else here (`Conversation`). */
  server?: ConversationServer;
  /** Options of a local conversation only (store, persistence, sandbox, hooks...). */
  local?: Omit<ConversationOptions, 'agent' | 'workspace' | 'id' | 'onEvent'>;
}

/**
 * One factory for both kinds, as the reference's `Conversation(...)` returns a local or a remote conversation
 * from the same arguments: with `server`, a `RemoteConversation` on that server (the agent sent as its JSON,
 * the model by name); without, a local `Conversation`. Both have `sendMessage`, `run`, `pause`, `interrupt`,
 * `rejectPendingActions`, `askAgent`, `generateTitle`, `fork`, `navigateTo`, `updateSecrets` and `close`.
 */
export async function openConversation(options: OpenConversationOptions): Promise<Conversation | RemoteConversation> {
  const { agent, workspace, id, onEvent, server } = options;
  if (server === undefined) {
    return Conversation.create({
      ...options.local,
      agent,
      workspace,
      ...(id === undefined ? {} : { id }),
      ...(onEvent === undefined ? {} : { onEvent }),
    });
  }
  const agentJson = { ...agent.toJSON(), llm: server.llm ?? { model: agent.llm.model } };
  return RemoteConversation.create(server.url, {
    ...server.client,
    agent: agentJson,
    workspace,
    ...(id === undefined ? {} : { id }),
    ...(server.apiKey === undefined ? {} : { apiKey: server.apiKey }),
    ...(onEvent === undefined ? {} : { onEvent }),
  });
}
