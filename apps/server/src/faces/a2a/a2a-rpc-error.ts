import { errorStatus } from '../../api/agent-error-status.js';
import { ConversationDeletedError } from '../../conversations/errors/conversation-deleted-error.js';
import { ServerError } from '../../errors.js';
import { WorkspaceGoneError } from '../../workspace/workspace-gone-error.js';

/** The JSON-RPC error codes this face answers with (JSON-RPC 2.0 and the A2A specification, §5.4). */
export const A2A_ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  taskNotFound: -32001,
  taskNotCancelable: -32002,
  pushNotificationNotSupported: -32003,
  unsupportedOperation: -32004,
  contentTypeNotSupported: -32005,
  versionNotSupported: -32009,
} as const;
export type A2aErrorName = keyof typeof A2A_ERROR_CODES;

/** An A2A request that cannot be carried out, answered as a JSON-RPC error with the spec's code. */
export class A2aRpcError extends ServerError {
  readonly rpcCode: number;

  constructor(name: A2aErrorName, message: string, options: { cause?: unknown } = {}) {
    super(`a2a_${name}`, message, options);
    this.rpcCode = A2A_ERROR_CODES[name];
  }
}

/** The `google.rpc.ErrorInfo` reason of each A2A error code (§3.3.2; the SDK's names), and of invalid params. */
const ERROR_REASONS: Readonly<Record<number, string>> = {
  [A2A_ERROR_CODES.invalidParams]: 'INVALID_PARAMS',
  [A2A_ERROR_CODES.taskNotFound]: 'TASK_NOT_FOUND',
  [A2A_ERROR_CODES.taskNotCancelable]: 'TASK_NOT_CANCELABLE',
  [A2A_ERROR_CODES.pushNotificationNotSupported]: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
  [A2A_ERROR_CODES.unsupportedOperation]: 'UNSUPPORTED_OPERATION',
  [A2A_ERROR_CODES.contentTypeNotSupported]: 'CONTENT_TYPE_NOT_SUPPORTED',
  [A2A_ERROR_CODES.versionNotSupported]: 'VERSION_NOT_SUPPORTED',
};

/**
 * A JSON-RPC error response for any error: ours keep their code; others by the HTTP status they stand for
 * (`errorStatus`, as the REST routes answer them): 404 task not found; 401 and 403 invalid request with the
 * `google.rpc.ErrorInfo` reason `PERMISSION_DENIED` (JSON-RPC and A2A have no code for a caller who may not do
 * this, e.g. one outside `approvalDeciders`); other 4xx, and a server error without a status, invalid params;
 * anything else internal, as is a deleted workspace root (409 `workspace_gone` on REST, but no fault of the request).
 * A conversation deleted while the call was under way (a delete racing it) is a task not found: the
 * request was fine, the task is gone. A2A errors carry their `google.rpc.ErrorInfo` in `error.data`, as §9.5 asks.
 */
export function rpcErrorResponse(id: string | number | null, error: unknown): Record<string, unknown> {
  let code: number = A2A_ERROR_CODES.internalError;
  let message = error instanceof Error ? error.message : String(error);
  let reason: string | undefined;
  if (A2aRpcError.isInstance(error)) code = error.rpcCode;
  else if (ConversationDeletedError.isInstance(error)) {
    code = A2A_ERROR_CODES.taskNotFound;
    message = `Task '${error.conversationId}' was deleted`;
  } else if (WorkspaceGoneError.isInstance(error)) {
    // A 409, but the server's own failure (its workspace root was deleted under it), not the request's params.
    code = A2A_ERROR_CODES.internalError;
  } else {
    const status = errorStatus(error);
    if (status === 404) code = A2A_ERROR_CODES.taskNotFound;
    else if (status === 401 || status === 403) {
      code = A2A_ERROR_CODES.invalidRequest;
      reason = 'PERMISSION_DENIED';
    } else if ((status !== undefined && status < 500) || (status === undefined && ServerError.isInstance(error))) {
      code = A2A_ERROR_CODES.invalidParams;
    }
  }
  reason ??= ERROR_REASONS[code];
  const data =
    reason === undefined
      ? {}
      : { data: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'a2a-protocol.org' }] };
  return { jsonrpc: '2.0', id, error: { code, message, ...data } };
}
