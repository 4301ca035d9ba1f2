import { resolve } from 'node:path';
import type { SandboxLimitName, SandboxPolicyInput } from '@x/agent';
import { expandHome } from '../data-dir.js';
import { UsageError } from '../errors/usage-error.js';

/** The sandbox flags of `x run`. */
export interface SandboxFlags {
  sandbox?: boolean;
  /** `--allow-network` alone: true (all); with hosts: the comma-separated list. */
  allowNetwork?: boolean | string;
  /** `--allow-private-networks`: the listed hosts may resolve into private networks (with `--allow-network <hosts>`). */
  allowPrivateNetworks?: boolean;
  allowRead?: string[];
  allowWrite?: string[];
  unsandboxed?: boolean;
  /** `--sandbox-limit NAME=VALUE` values, collected by `collectSandboxLimit`. */
  sandboxLimit?: Partial<Record<SandboxLimitName, number | 'unlimited'>>;
}

/**
 * The policy the flags ask for; undefined when none was given (a new conversation is then sandboxed with no
 * network, a resumed one keeps the policy it recorded). `--unsandboxed` cannot be combined with the others.
 * `--sandbox-limit` sets the limits it names; the others keep their defaults (applied when commands run).
 */
export function sandboxPolicyOfFlags(flags: SandboxFlags): SandboxPolicyInput | undefined {
  const widening =
    flags.allowNetwork !== undefined ||
    flags.allowPrivateNetworks === true ||
    (flags.allowRead?.length ?? 0) > 0 ||
    (flags.allowWrite?.length ?? 0) > 0;
  const limits = flags.sandboxLimit ?? {};
  const limited = Object.keys(limits).length > 0;
  if (flags.unsandboxed === true) {
    if (flags.sandbox === true || widening || limited) {
      throw new UsageError(
        '--unsandboxed runs without a sandbox: leave out --sandbox, the --allow-* options and --sandbox-limit.',
      );
    }
    return { mode: 'unsandboxed' };
  }
  if (flags.sandbox !== true && !widening && !limited) return undefined;
  const hosts =
    typeof flags.allowNetwork === 'string'
      ? flags.allowNetwork
          .split(',')
          .map((host) => host.trim())
          .filter((host) => host !== '')
      : [];
  if (typeof flags.allowNetwork === 'string' && hosts.length === 0) {
    throw new UsageError('--allow-network was given an empty host list.', {
      hint: 'Use --allow-network alone for the whole network, or --allow-network example.com,api.example.com.',
    });
  }
  if (flags.allowPrivateNetworks === true && hosts.length === 0) {
    throw new UsageError('--allow-private-networks widens a host list: give it with --allow-network <hosts>.', {
      hint: 'For example: --allow-network db.internal.example:5432 --allow-private-networks (or list the IP address itself).',
    });
  }
  const absolute = (path: string): string => resolve(expandHome(path));
  return {
    mode: 'sandboxed',
    network:
      flags.allowNetwork === undefined
        ? { mode: 'none' }
        : hosts.length === 0
          ? { mode: 'all' }
          : {
              mode: 'allowlist',
              hosts,
              ...(flags.allowPrivateNetworks === true ? { allowPrivateNetworks: true } : {}),
            },
    readablePaths: (flags.allowRead ?? []).map(absolute),
    writablePaths: (flags.allowWrite ?? []).map(absolute),
    ...(limited ? { limits } : {}),
  };
}

/** One line for the run header: what the agent's processes run under. */
export function describeSandboxPolicy(policy: {
  mode: string;
  network: { mode: string; hosts?: string[]; allowPrivateNetworks?: boolean };
  readablePaths: string[];
  writablePaths: string[];
}): string {
  if (policy.mode === 'unsandboxed') return 'NONE: commands run with your authority (--unsandboxed)';
  const network =
    policy.network.mode === 'allowlist'
      ? `network ${policy.network.hosts?.join(', ')}${policy.network.allowPrivateNetworks === true ? ' (private networks allowed)' : ''}`
      : `network ${policy.network.mode}`;
  const extra = [
    ...(policy.readablePaths.length === 0 ? [] : [`+read ${policy.readablePaths.join(', ')}`]),
    ...(policy.writablePaths.length === 0 ? [] : [`+write ${policy.writablePaths.join(', ')}`]),
  ];
  return ['bubblewrap', network, ...extra].join(', ');
}
