import { SandboxUnavailableError } from '../sandbox-unavailable-error.js';

/**
 * The `SandboxUnavailableError` behind `error`, itself or along its `cause` chain (a tool wraps it in its own
 * error, as the terminal's `ToolExecutionError` does); undefined when there is none.
 */
export function findSandboxUnavailable(error: unknown): SandboxUnavailableError | undefined {
  let current = error;
  // A chain longer than this is no wrapping of ours; a cycle ends here too.
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (SandboxUnavailableError.isInstance(current)) return current;
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return undefined;
}
