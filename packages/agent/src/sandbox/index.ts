export type { PreparedCommand, Sandbox, SandboxCommand, SandboxSpawnOptions } from './sandbox.js';
export {
  type SandboxLimits,
  type SandboxNetwork,
  type SandboxPolicy,
  type SandboxPolicyInput,
  sandboxLimitsSchema,
  sandboxNetworkSchema,
  sandboxPolicySchema,
} from './sandbox-policy.js';
