import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';

/** What a conversation asks for when it needs its sandbox. */
export interface SandboxRequest {
  policy: SandboxPolicy;
  /** The conversation's workspace: the sandbox's writable root. */
  workspace: string;
}
