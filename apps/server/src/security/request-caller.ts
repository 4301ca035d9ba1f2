import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';

/**
 * Who a request or socket frame acts as, for what the server lets only some callers do whatever face or route
 * they come through (deciding on pending actions, `approvalDeciders`): `api-key:<first 12 hex of the key's
 * SHA-256>` (never the key itself), or `local` when the server has no keys.
 */
export function principalOfKey(apiKeys: readonly string[], key: string | undefined): string {
  if (apiKeys.length === 0 || key === undefined) return 'local';
  return `api-key:${createHash('sha256').update(key).digest('hex').slice(0, 12)}`;
}

/** Who the work under way acts for. */
export interface Caller {
  principal: string;
  /** Whether the principal may decide on pending actions (listed in `approvalDeciders`, or the server has none). */
  mayDecide: boolean;
}

/** A caller named by the key it presented, judged against the server's `approvalDeciders`. */
export function callerOfKey(
  apiKeys: readonly string[],
  key: string | undefined,
  approvalDeciders: readonly string[] | undefined,
): Caller {
  const principal = principalOfKey(apiKeys, key);
  return { principal, mayDecide: approvalDeciders === undefined || approvalDeciders.includes(principal) };
}

/**
 * The caller of the work under way, carried across `await`s: set by the route-auth layer for every protected
 * route (from the key it accepted, header or bearer) and by the event socket for its frames. Code that runs for no
 * caller (recovery sweeps, restarts, public routes) sees none.
 */
const callers = new AsyncLocalStorage<Caller>();

/** Runs `work` (and everything it starts) as `caller`. */
export function actAs<T>(caller: Caller, work: () => T): T {
  return callers.run(caller, work);
}

/** The caller the current work acts for; undefined outside any request or frame. */
export function currentCaller(): Caller | undefined {
  return callers.getStore();
}
