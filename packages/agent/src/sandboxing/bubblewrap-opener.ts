import { createSandbox } from '../sandbox/create-sandbox.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { SandboxRequest } from './sandbox-request.js';

/** Bubblewrap, loaded only when a sandboxed policy needs it. */
export function openBubblewrapSandbox(request: SandboxRequest): Promise<Sandbox> {
  return createSandbox({ policy: request.policy, workspace: request.workspace });
}
