import type { z } from 'zod';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import type { ConversationManager } from '../../conversations/conversation-manager.js';
import type { ManagedConversation } from '../../conversations/managed-conversation.js';
import { clientText } from '../../internal/client-text.js';
import { listTasksParamsSchema, type RpcRequest, sendMessageParamsSchema, taskIdParamsSchema } from './a2a-requests.js';
import { A2aRpcError } from './a2a-rpc-error.js';
import { cancelTask, findTask, runEnded, taskOf } from './a2a-tasks.js';
import { applyMessage } from './apply-message.js';
import { listTasks } from './list-tasks.js';
import { checkOutputModes } from './message-input.js';
import { isFinalState } from './task-projection.js';

/** What a call comes to: a JSON-RPC result, or a task to stream from a log index on. */
export type RpcOutcome =
  | { kind: 'result'; result: unknown }
  | {
      kind: 'stream';
      conversation: ManagedConversation;
      fromIndex: number;
      /** The call has just started the task's run (a message), rather than joining what is going (a subscription). */
      runStarted: boolean;
    };

/** The methods answered with a stream of server-sent events rather than one response. */
export const STREAMING_METHODS: ReadonlySet<string> = new Set(['SendStreamingMessage', 'SubscribeToTask']);

const PUSH_METHODS: ReadonlySet<string> = new Set([
  'CreateTaskPushNotificationConfig',
  'GetTaskPushNotificationConfig',
  'ListTaskPushNotificationConfigs',
  'DeleteTaskPushNotificationConfig',
]);

/** A2A 0.3 method names: a client speaking them speaks a protocol version this face does not. */
const LEGACY_METHODS: ReadonlySet<string> = new Set([
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/list',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'tasks/pushNotificationConfig/list',
  'tasks/pushNotificationConfig/delete',
  'agent/getAuthenticatedExtendedCard',
]);

export interface DispatchOptions {
  manager: ConversationManager;
  defaultConversation?: StartConversationRequest | undefined;
}

function paramsOf<T extends z.ZodType>(schema: T, request: RpcRequest): z.infer<T> {
  const parsed = schema.safeParse(request.params ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'params' : `params.${issue.path.join('.')}`;
    throw new A2aRpcError('invalidParams', `${request.method}: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}

const result = (value: unknown): RpcOutcome => ({ kind: 'result', result: value });

/**
 * Carries out one A2A call. Every refusal is thrown as an `A2aRpcError` with the spec's code; capabilities the card
 * declares absent are refused as §3.3.4 says (push notifications -32003, the extended card -32004).
 */
export async function dispatchRpc(rpc: RpcRequest, options: DispatchOptions): Promise<RpcOutcome> {
  const { manager } = options;
  switch (rpc.method) {
    case 'SendMessage':
    case 'SendStreamingMessage': {
      const params = paramsOf(sendMessageParamsSchema, rpc);
      if (params.configuration?.taskPushNotificationConfig != null) {
        throw new A2aRpcError(
          'pushNotificationNotSupported',
          `${rpc.method}: params.configuration.taskPushNotificationConfig: this agent does not send push notifications`,
        );
      }
      checkOutputModes(params.configuration?.acceptedOutputModes);
      const applied = await applyMessage(manager, params.message, options.defaultConversation);
      if (rpc.method === 'SendStreamingMessage') return { kind: 'stream', ...applied, runStarted: true };
      if (params.configuration?.returnImmediately !== true) await runEnded(applied.conversation);
      const historyLength = params.configuration?.historyLength;
      const task = (await taskOf(applied.conversation, manager.store)).task(
        historyLength === undefined ? {} : { historyLength },
      );
      return result({ task });
    }
    case 'SubscribeToTask': {
      const params = paramsOf(taskIdParamsSchema, rpc);
      const conversation = await findTask(manager, params.id);
      const fromIndex = conversation.log.length;
      const state = (await taskOf(conversation)).state;
      if (!conversation.isRunning && isFinalState(state)) {
        throw new A2aRpcError(
          'unsupportedOperation',
          `Task '${clientText(params.id)}' has ended (${state}): nothing to subscribe to`,
        );
      }
      return { kind: 'stream', conversation, fromIndex, runStarted: false };
    }
    case 'GetTask': {
      const params = paramsOf(taskIdParamsSchema, rpc);
      const conversation = await findTask(manager, params.id);
      const history = params.historyLength === undefined ? {} : { historyLength: params.historyLength };
      return result((await taskOf(conversation, manager.store)).task(history));
    }
    case 'ListTasks':
      return result(await listTasks(manager, paramsOf(listTasksParamsSchema, rpc)));
    case 'CancelTask': {
      const params = paramsOf(taskIdParamsSchema, rpc);
      const conversation = await findTask(manager, params.id);
      return result((await cancelTask(conversation)).task());
    }
    case 'GetExtendedAgentCard':
      throw new A2aRpcError(
        'unsupportedOperation',
        'This agent has no extended agent card (its card says capabilities.extendedAgentCard: false)',
      );
    default:
      if (PUSH_METHODS.has(rpc.method)) {
        throw new A2aRpcError('pushNotificationNotSupported', 'This agent does not send push notifications');
      }
      if (LEGACY_METHODS.has(rpc.method)) {
        throw new A2aRpcError(
          'versionNotSupported',
          `'${clientText(rpc.method)}' is an A2A 0.3 method: this agent speaks A2A 1.0 only (SendMessage, GetTask, ...)`,
        );
      }
      throw new A2aRpcError('methodNotFound', `Unknown A2A method '${clientText(rpc.method)}'`);
  }
}
