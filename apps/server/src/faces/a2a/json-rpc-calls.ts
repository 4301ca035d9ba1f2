import { clientText } from '../../internal/client-text.js';
import { type RpcRequest, rpcRequestSchema } from './a2a-requests.js';
import { A2A_ERROR_CODES } from './a2a-rpc-error.js';
import { A2A_PROTOCOL_VERSION } from './a2a-types.js';

export type RequestId = string | number | null;

export interface RpcErrorBody {
  jsonrpc: '2.0';
  id: RequestId;
  error: { code: number; message: string };
}

/**
 * One call of a request body: a valid request (a notification when it has no `id` member, JSON-RPC 2.0 §4.1), or
 * the error it is answered with.
 */
export type RpcCall = { rpc: RpcRequest; id: RequestId; notification: boolean } | { invalid: RpcErrorBody };

/** The calls of a request body: one object, or a batch (a non-empty array, answered with an array). */
export interface RpcCalls {
  batch: boolean;
  calls: RpcCall[];
}

function invalidRequest(id: RequestId, message: string): RpcErrorBody {
  return { jsonrpc: '2.0', id, error: { code: A2A_ERROR_CODES.invalidRequest, message } };
}

function callOf(body: unknown): RpcCall {
  const envelope = rpcRequestSchema.safeParse(body);
  if (!envelope.success) {
    const id = (body as { id?: unknown } | null)?.id;
    // Named by its member (`method: ...`), so the caller knows which part of the envelope to fix.
    const [issue] = envelope.error.issues;
    const member = issue === undefined || issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
    return {
      invalid: invalidRequest(
        typeof id === 'string' || typeof id === 'number' ? id : null,
        `Not a JSON-RPC 2.0 request: ${member}${issue?.message ?? ''}`,
      ),
    };
  }
  const rpc = envelope.data;
  return { rpc, id: rpc.id ?? null, notification: !Object.hasOwn(body as object, 'id') };
}

/** Reads a request body as JSON-RPC 2.0 calls; an empty batch is one invalid request (§6). */
export function readCalls(body: unknown): RpcCalls {
  if (!Array.isArray(body)) return { batch: false, calls: [callOf(body)] };
  if (body.length === 0) {
    return { batch: false, calls: [{ invalid: invalidRequest(null, 'Not a JSON-RPC 2.0 request: an empty batch') }] };
  }
  return { batch: true, calls: body.map(callOf) };
}

/**
 * Why the request's `A2A-Version` cannot be served, or undefined when it can: `major[.minor[.patch]]` in digits, of
 * which only the major.minor counts (§3.6).
 * A request without the header is served as 1.0: the spec reads a missing header as 0.3, but a 0.3 client is
 * known by its method names (answered -32009 too), and plain JSON-RPC callers (curl, scripts) send no header.
 */
export function unsupportedVersion(header: string | string[] | undefined): string | undefined {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (value === undefined || value === '') return undefined;
  // Digits only: Number() would read '0x1', '1e0', '+1' or '1.' as 1.0 and serve a version the client never named.
  const match = /^(\d+)(?:\.(\d+))?(?:\.\d+)?$/.exec(value);
  if (match !== null && `${Number(match[1])}.${Number(match[2] ?? '0')}` === A2A_PROTOCOL_VERSION) return undefined;
  return `A2A-Version '${clientText(value)}' is not supported: this agent speaks A2A ${A2A_PROTOCOL_VERSION}`;
}
