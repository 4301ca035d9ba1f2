import type { Sandbox } from '../sandbox/sandbox.js';
import { createUnsandboxedSandbox } from '../sandbox/unsandboxed.js';
import type { SandboxRequest } from './sandbox-request.js';

// Declared in its own file so that the bubblewrap opener (imported lazily below) does not import this one.
export type { SandboxRequest } from './sandbox-request.js';

/**
 * Opens a sandbox for a conversation (its terminal, hooks and MCP stdio servers). The default opens bubblewrap for
 * `mode: 'sandboxed'` (throwing `SandboxUnavailableError` where it cannot run) and the explicit opt-out for
 * `mode: 'unsandboxed'`. Replace it to inject a bubblewrap path, a probe, or a sandbox of your own.
 */
export type SandboxOpener = (request: SandboxRequest) => Promise<Sandbox>;

export const openDefaultSandbox: SandboxOpener = async (request) => {
  if (request.policy.mode === 'unsandboxed') {
    return createUnsandboxedSandbox({ policy: request.policy, workspace: request.workspace });
  }
  const { openBubblewrapSandbox } = await import('./bubblewrap-opener.js');
  return openBubblewrapSandbox(request);
};

/**
 * A sandbox lent to someone who must not end it (a sub-agent runs in its parent's sandbox): `dispose()` does
 * nothing; the owner's `dispose()` still ends everything started through it.
 */
export function lendSandbox(sandbox: Sandbox): Sandbox {
  return Object.freeze({
    kind: sandbox.kind,
    policy: sandbox.policy,
    workspace: sandbox.workspace,
    prepare: (command) => sandbox.prepare(command),
    spawn: (options) => sandbox.spawn(options),
    signal: (pid, signal) => sandbox.signal(pid, signal),
    dispose: async () => undefined,
  } satisfies Sandbox);
}
