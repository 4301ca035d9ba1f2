import { RemoteRequestError } from './errors/remote-request-error.js';
import { RestClient } from './internal/rest-client.js';

/**
 * The commands of one conversation, each one REST request that returns once the server answered (unlike
 * `RemoteConversation.run()`, nothing waits for the run to end): for UIs, which follow the run on the stream.
 */
export interface ConversationCommands {
  /** Adds a user message (`POST .../events`); `run: true` also starts a run. */
  sendMessage(text: string, options?: { run?: boolean }): Promise<void>;
  /** Starts a run (`POST .../run`); one already running (409) is fine. */
  run(): Promise<void>;
  /** Pauses between steps (`POST .../pause`). */
  pause(): Promise<void>;
  /** Stops the model call and running tools now (`POST .../interrupt`). */
  interrupt(): Promise<void>;
  /** Accepts the actions waiting for confirmation, which then run (`POST .../events/respond_to_confirmation`). */
  confirm(): Promise<void>;
  /** Rejects the actions waiting for confirmation (`POST .../events/respond_to_confirmation`). */
  reject(reason?: string): Promise<void>;
  /**
   * Forks the conversation (`POST .../fork`; `fromEventId`: only the branch up to that event) and returns the
   * fork's ConversationInfo, without attaching to it.
   */
  fork(options?: { fromEventId?: string }): Promise<Readonly<Record<string, unknown>> & { readonly id: string }>;
}

export interface ConversationCommandsOptions {
  /** Session API key (`X-Session-API-Key`). */
  apiKey?: string;
}

export function createConversationCommands(
  serverUrl: string,
  conversationId: string,
  options: ConversationCommandsOptions = {},
): ConversationCommands {
  const rest = new RestClient(serverUrl, options.apiKey);
  const path = (suffix: string): string => `/api/conversations/${encodeURIComponent(conversationId)}/${suffix}`;
  const post = async (suffix: string, body: unknown, allow: readonly number[] = []): Promise<void> => {
    await rest.request('POST', path(suffix), { body, conversationId, allow });
  };
  return {
    sendMessage: (text, { run = false } = {}) =>
      post('events', { role: 'user', content: [{ type: 'text', text }], run }),
    run: () => post('run', {}, [409]),
    pause: () => post('pause', {}),
    interrupt: () => post('interrupt', {}),
    confirm: () => post('events/respond_to_confirmation', { accept: true }),
    reject: (reason = 'User rejected the action') => post('events/respond_to_confirmation', { accept: false, reason }),
    fork: async ({ fromEventId } = {}) => {
      const body = fromEventId === undefined ? {} : { from_event_id: fromEventId };
      const info = await rest.request<Record<string, unknown>>('POST', path('fork'), { body, conversationId });
      if (typeof info?.id !== 'string') {
        throw new RemoteRequestError({
          method: 'POST',
          url: `${rest.serverUrl}${path('fork')}`,
          status: 201,
          detail: 'the response has no conversation id',
        });
      }
      return info as Record<string, unknown> & { id: string };
    },
  };
}
