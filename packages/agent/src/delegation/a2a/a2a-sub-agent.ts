import { randomUUID } from 'node:crypto';
import { loadOptionalDependency } from '../../dependencies/internal/load-optional-dependency.js';
import { credentialValues, hideCredentialValues } from '../../secrets/internal/credential-values.js';
import { maskErrorChain } from '../../secrets/internal/mask-error.js';
import { type RemoteSubAgent, type RemoteSubAgentType, remoteUsageSchema } from '../remote-sub-agent.js';
import { type A2aStreamItem, foldA2aStream, isTerminalState } from './a2a-answer.js';
import { RemoteAgentError } from './remote-agent-error.js';

export interface A2aSubAgentOptions {
  /** The remote agent's base URL: its card is read from `<url>/.well-known/agent-card.json` (or `cardPath`). */
  url: string;
  /** Where the card is, relative to `url`, when not at the well-known path. */
  cardPath?: string;
  /** Shown to the model in the delegate tool's description (default: names the URL). */
  description?: string;
  /** Sent with every request to the remote (its card and its endpoint), e.g. an API key header. */
  headers?: Readonly<Record<string, string>>;
}

/** `ROLE_USER` of A2A v1.0. */
const ROLE_USER = 1;

function fetchWithHeaders(headers: Readonly<Record<string, string>> | undefined): typeof fetch {
  if (headers === undefined) return fetch;
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}

/**
 * A remote A2A agent as a sub-agent type of the `delegate` tool. Spawning one reads the remote's agent card;
 * each delegated task is sent as an A2A message and streamed (`SendStreamingMessage`, or `SendMessage` when the
 * card says the agent does not stream) through `@a2a-js/sdk`'s client, an optional peer loaded on first use
 * (`MissingDependencyError` when it is not installed). The answer is the task's artifacts' text (or its last
 * status message); later tasks of the same sub-agent continue its context, and a task left waiting for input
 * takes the next one. A task the remote fails, rejects or cancels is a `RemoteAgentError`, which the delegate
 * tool reports in its observation. What a task reports it spent in `metadata.usage` (`{ costUsd, promptTokens,
 * completionTokens }`, on the task, a status update or the message) is counted against the parent's budgets.
 */
export function createA2aSubAgentType(options: A2aSubAgentOptions): RemoteSubAgentType {
  return {
    description: options.description ?? `A remote agent (A2A) at ${options.url}`,
    connect: () => connectA2a(options),
  };
}

/**
 * The remote, with what configures it hidden in everything it says: its headers (an API key) and what its URL holds
 * (`credentialValues`). A remote quotes the key it refused in a failed task's status, or echoes a header in its
 * answer; the delegate tool records both in the conversation's events, which hide only the conversation's secrets.
 */
async function connectA2a(options: A2aSubAgentOptions): Promise<RemoteSubAgent> {
  const credentials = credentialValues({ headers: options.headers, url: options.url });
  const hide = (text: string): string => hideCredentialValues(text, credentials);
  const hidden = <T>(work: () => Promise<T>): Promise<T> =>
    work().catch((error: unknown) => {
      maskErrorChain(error, hide);
      throw error;
    });
  const remote = await hidden(() => connectRemote(options));
  return {
    send: (task, sendOptions) =>
      hidden(async () => {
        const answer = await remote.send(task, sendOptions);
        return typeof answer === 'string' ? hide(answer) : { ...answer, text: hide(answer.text) };
      }),
  };
}

async function connectRemote(options: A2aSubAgentOptions): Promise<RemoteSubAgent> {
  const sdk = await loadOptionalDependency('The A2A sub-agent', '@a2a-js/sdk', () => import('@a2a-js/sdk/client'));
  const fetchImpl = fetchWithHeaders(options.headers);
  const factory = new sdk.ClientFactory(
    sdk.ClientFactoryOptions.createFrom(sdk.ClientFactoryOptions.default, {
      transports: [new sdk.JsonRpcTransportFactory({ fetchImpl }), new sdk.RestTransportFactory({ fetchImpl })],
      cardResolver: new sdk.DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  let client: Awaited<ReturnType<typeof factory.createFromUrl>>;
  try {
    client = await factory.createFromUrl(options.url, options.cardPath);
  } catch (error) {
    throw new RemoteAgentError(options.url, `could not be reached: ${(error as Error).message}`, { cause: error });
  }
  let contextId = '';
  let openTaskId = '';
  return {
    async send(task, { signal }) {
      const message = {
        messageId: randomUUID(),
        contextId,
        taskId: openTaskId,
        role: ROLE_USER,
        parts: [{ content: { $case: 'text' as const, value: task }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      };
      const items: A2aStreamItem[] = [];
      try {
        const stream = client.sendMessageStream(
          { tenant: '', message, configuration: undefined, metadata: undefined },
          signal === undefined ? {} : { signal },
        );
        for await (const response of stream) items.push(response.payload as A2aStreamItem);
      } catch (error) {
        if (signal?.aborted === true) throw error;
        throw new RemoteAgentError(options.url, `failed the request: ${(error as Error).message}`, { cause: error });
      }
      const outcome = foldA2aStream(items);
      contextId = outcome.contextId ?? contextId;
      openTaskId = isTerminalState(outcome.state) ? '' : (outcome.taskId ?? '');
      const text = outcome.artifactText || outcome.messageText;
      if (outcome.state === 'failed' || outcome.state === 'rejected' || outcome.state === 'canceled') {
        throw new RemoteAgentError(options.url, `${outcome.state} the task${text === '' ? '' : `: ${text}`}`);
      }
      if (outcome.state === 'inputRequired' || outcome.state === 'authRequired') {
        return `The remote agent needs ${outcome.state === 'authRequired' ? 'authorization' : 'more input'}: ${outcome.messageText || text}`;
      }
      if (!isTerminalState(outcome.state)) {
        throw new RemoteAgentError(options.url, `ended the stream while the task was still ${outcome.state}`);
      }
      // What the remote says the task spent, when it says it in a shape we read; anything else is not counted.
      const usage = remoteUsageSchema.safeParse(outcome.usage);
      return { text: text || 'No response from the remote agent', usage: usage.success ? usage.data : undefined };
    },
  };
}
