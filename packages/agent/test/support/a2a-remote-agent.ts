// A remote A2A agent built with `@a2a-js/sdk`'s own server classes (DefaultRequestHandler, InMemoryTaskStore,
// JsonRpcTransportHandler) on a plain node:http server on 127.0.0.1: a tiny executor that answers each task with
// an artifact streamed in two appended chunks, or fails it when asked to; it can report what each task spent.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, type Message, type Part, Role, TaskState } from '@a2a-js/sdk';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
} from '@a2a-js/sdk/server';

export interface RemoteA2aAgent {
  url: string;
  /** What each task brought: its text, its context and task ids, and the request's headers. */
  received: Array<{ text: string; contextId: string; taskId: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

/** A text part as the SDK's server classes write one. */
export const textPart = (text: string): Part => ({
  content: { $case: 'text', value: text },
  metadata: undefined,
  filename: '',
  mediaType: 'text/plain',
});

/** A message of the remote agent's, saying `text`. */
export const agentMessage = (messageId: string, text: string): Message => ({
  messageId,
  contextId: '',
  taskId: '',
  role: Role.ROLE_AGENT,
  parts: [textPart(text)],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

function status(state: TaskState, text?: string) {
  return {
    state,
    message: text === undefined ? undefined : agentMessage(`status-${state}`, text),
    timestamp: undefined,
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export interface RemoteA2aAgentOptions {
  /** Reported as what each completed task spent, in its final status update's `metadata.usage`. */
  usage?: Record<string, unknown>;
}

export async function startRemoteA2aAgent(options: RemoteA2aAgentOptions = {}): Promise<RemoteA2aAgent> {
  const received: RemoteA2aAgent['received'] = [];
  let authorization: string | undefined;
  const executor: AgentExecutor = {
    async execute(context, bus) {
      const text = context.userMessage.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');
      const { taskId, contextId } = context;
      received.push({ text, contextId, taskId, authorization });
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: status(TaskState.TASK_STATE_SUBMITTED),
          artifacts: [],
          history: [context.userMessage],
          metadata: undefined,
        }),
      );
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: status(TaskState.TASK_STATE_WORKING),
          metadata: undefined,
        }),
      );
      // `refuse me`: fails the task quoting the credential it was sent, as a remote refusing a key may.
      const refusal = text.includes('refuse me') ? `bad credentials: ${authorization}` : undefined;
      if (text.includes('impossible') || refusal !== undefined) {
        bus.publish(
          AgentEvent.statusUpdate({
            taskId,
            contextId,
            status: status(TaskState.TASK_STATE_FAILED, refusal ?? 'cannot do the impossible'),
            metadata: undefined,
          }),
        );
        bus.finished();
        return;
      }
      // `whoami`: answers with the credential it was sent, as a remote echoing its request may.
      const answer = text.includes('whoami') ? `you sent ${authorization}` : text.toUpperCase();
      for (const [index, chunk] of ['Remote says: ', answer].entries()) {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: {
              artifactId: 'answer',
              name: 'answer',
              description: '',
              parts: [textPart(chunk)],
              metadata: undefined,
              extensions: [],
            },
            append: index > 0,
            lastChunk: index > 0,
            metadata: undefined,
          }),
        );
      }
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: status(TaskState.TASK_STATE_COMPLETED),
          metadata: options.usage === undefined ? undefined : { usage: options.usage },
        }),
      );
      bus.finished();
    },
    async cancelTask() {},
  };

  const served = await serveA2aExecutor(
    executor,
    {
      name: 'remote test agent',
      description: 'Answers in capitals',
      skills: [
        {
          id: 'shout',
          name: 'Shout',
          description: 'Repeats in capitals',
          tags: ['text'],
          examples: [],
          inputModes: [],
          outputModes: [],
          securityRequirements: [],
        },
      ],
    },
    (request) => {
      const header = request.headers.authorization;
      authorization = Array.isArray(header) ? header[0] : header;
    },
  );
  return { ...served, received };
}

/**
 * Serves `executor` as `@a2a-js/sdk`'s own server classes do (JSON-RPC, SSE for streams, the card at
 * `/.well-known/agent-card.json`) on 127.0.0.1; `onRequest` sees each request before it is handled.
 */
export async function serveA2aExecutor(
  executor: AgentExecutor,
  about: Pick<AgentCard, 'name' | 'description' | 'skills'>,
  onRequest?: (request: IncomingMessage) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  // The card names the server's URL, known once it listens: both are set then.
  let card: AgentCard | undefined;
  let handler: JsonRpcTransportHandler | undefined;
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method === 'GET' && request.url === '/.well-known/agent-card.json') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(card));
        return;
      }
      onRequest?.(request);
      const context = defaultServerCallContextBuilder({
        extensions: undefined,
        user: new UnauthenticatedUser(),
        headers: request.headers,
        requestedVersion: '1.0',
      });
      const result = await (handler as JsonRpcTransportHandler).handle(await readBody(request), context);
      if (typeof (result as AsyncGenerator)[Symbol.asyncIterator] === 'function') {
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        for await (const event of result as AsyncGenerator) response.write(`data: ${JSON.stringify(event)}\n\n`);
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(result));
    })().catch((error: unknown) => {
      response.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  card = {
    ...about,
    version: '1.0.0',
    supportedInterfaces: [{ url: `${url}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }],
    provider: undefined,
    documentationUrl: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    signatures: [],
    iconUrl: undefined,
  } as AgentCard;
  handler = new JsonRpcTransportHandler(new DefaultRequestHandler(card, new InMemoryTaskStore(), executor));
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
