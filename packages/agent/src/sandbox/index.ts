export { type BwrapArgsOptions, buildBwrapArgs, type SystemEntry } from './bwrap-args.js';
export { type CreateSandboxOptions, createSandbox } from './create-sandbox.js';
export { detectSandboxSupport, type SandboxSupport } from './detect-sandbox-support.js';
export { type HostPattern, isHostAllowed, parseHostPattern } from './host-allowlist.js';
export type { DeniedConnection } from './internal/allowlist-proxy.js';
export { systemDirectories } from './internal/host-layout.js';
export { InvalidSandboxPolicyError } from './invalid-sandbox-policy-error.js';
export { type RunSandboxedOptions, runSandboxed } from './run-sandboxed.js';
export type { PreparedCommand, Sandbox, SandboxCommand, SandboxSpawnOptions } from './sandbox.js';
export { SandboxCommandError } from './sandbox-command-error.js';
export { SandboxHostScanError } from './sandbox-host-scan-error.js';
export { SandboxLimitError } from './sandbox-limit-error.js';
export { SandboxLimitUnavailableError } from './sandbox-limit-unavailable-error.js';
export {
  DEFAULT_SANDBOX_LIMITS,
  type ResolvedSandboxLimits,
  resolveSandboxLimits,
  type SandboxLimitName,
  type SandboxLimits,
  sandboxLimitsSchema,
} from './sandbox-limits.js';
export {
  type SandboxNetwork,
  type SandboxPolicy,
  type SandboxPolicyInput,
  sandboxNetworkSchema,
  sandboxPolicySchema,
} from './sandbox-policy.js';
export type { SandboxLimitKind, SandboxRunResult } from './sandbox-run-result.js';
export { SandboxUnavailableError } from './sandbox-unavailable-error.js';
