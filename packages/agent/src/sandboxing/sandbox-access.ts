import type { Sandbox } from '../sandbox/sandbox.js';
import type { SandboxPolicy } from '../sandbox/sandbox-policy.js';

/** How a part that starts long-lived processes (MCP stdio servers) reaches its conversation's sandbox. */
export interface SandboxAccess {
  readonly policy: SandboxPolicy;
  /** The conversation's sandbox, opened on the first call; its owner ends it. */
  get(): Promise<Sandbox>;
  /** A sandbox of another policy in the same workspace; whoever asked for it disposes it. */
  openWith(policy: SandboxPolicy): Promise<Sandbox>;
}
