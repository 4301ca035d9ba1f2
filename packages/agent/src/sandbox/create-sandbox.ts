import { realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { BubblewrapSandbox } from './bubblewrap-sandbox.js';
import { detectSandboxSupport } from './detect-sandbox-support.js';
import type { DeniedConnection } from './internal/allowlist-proxy.js';
import { discoverCgroupHierarchies, removeStaleCgroups } from './internal/cgroups.js';
import { readHostLayout } from './internal/host-layout.js';
import { checkPolicyAroundPrivateRoot } from './internal/private-directory.js';
import { InvalidSandboxPolicyError } from './invalid-sandbox-policy-error.js';
import type { Sandbox } from './sandbox.js';
import { type SandboxPolicyInput, sandboxPolicySchema } from './sandbox-policy.js';
import { SandboxUnavailableError } from './sandbox-unavailable-error.js';

export interface CreateSandboxOptions {
  policy: SandboxPolicyInput;
  /** The directory mounted read-write (at the same absolute path); it must exist. */
  workspace: string;
  /** Told of every connection the network allowlist refused (each also gets a 403 inside the sandbox). */
  onNetworkDenied?: (denied: DeniedConnection) => void;
}

function realDirectory(path: string, what: string): string {
  if (!isAbsolute(path)) throw new InvalidSandboxPolicyError(`The ${what} ${path} is not an absolute path`);
  try {
    const real = realpathSync(path);
    if (!statSync(real).isDirectory()) throw new InvalidSandboxPolicyError(`The ${what} ${path} is not a directory`);
    return real;
  } catch (error) {
    if (InvalidSandboxPolicyError.isInstance(error)) throw error;
    throw new InvalidSandboxPolicyError(`The ${what} ${path} does not exist`, { cause: error });
  }
}

function realPath(path: string, what: string): string {
  try {
    return realpathSync(path);
  } catch (error) {
    throw new InvalidSandboxPolicyError(`The ${what} ${path} does not exist`, { cause: error });
  }
}

/** Whether a version string (`0.8.0`) is at least `minimum`; an unreadable one is not. */
function versionAtLeast(version: string, minimum: readonly number[]): boolean {
  const parts = /^(\d+)\.(\d+)(?:\.(\d+))?/.exec(version.trim());
  if (parts === null) return false;
  const numbers = [parts[1], parts[2], parts[3] ?? '0'].map((part) => Number.parseInt(part ?? '0', 10));
  for (let index = 0; index < minimum.length; index += 1) {
    const have = numbers[index] ?? 0;
    const want = minimum[index] ?? 0;
    if (have !== want) return have > want;
  }
  return true;
}

/**
 * A bubblewrap sandbox for one conversation's workspace. Throws `SandboxUnavailableError` when this host
 * cannot sandbox (never falls back to running unsandboxed), `SandboxHostScanError` when /etc holds more entries
 * than the scan for its private files looks at, and `InvalidSandboxPolicyError` for a policy that does not parse,
 * a missing workspace, or `mode: 'unsandboxed'` (that opt-out has its own implementation).
 */
export async function createSandbox(options: CreateSandboxOptions): Promise<Sandbox> {
  const parsed = sandboxPolicySchema.safeParse(options.policy);
  if (!parsed.success)
    throw new InvalidSandboxPolicyError(
      `Invalid sandbox policy: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`,
      { cause: parsed.error },
    );
  const policy = parsed.data;
  if (policy.mode === 'unsandboxed')
    throw new InvalidSandboxPolicyError(
      "createSandbox builds sandboxes; a policy of mode 'unsandboxed' is run by the explicit unsandboxed implementation",
    );
  const workspace = realDirectory(options.workspace, 'workspace');
  // Before the probe (cached for the process): an /etc grown past its scan's limit since is refused here, by name.
  const layout = readHostLayout();
  const support = await detectSandboxSupport();
  if (!support.available) throw new SandboxUnavailableError(support.reason);
  const cgroups = discoverCgroupHierarchies();
  await removeStaleCgroups(cgroups);
  const writablePaths = policy.writablePaths.map((path) => realPath(path, 'writable path'));
  const readablePaths = policy.readablePaths.map((path) => realPath(path, 'readable path'));
  checkPolicyAroundPrivateRoot({ writable: [workspace, ...writablePaths], readable: readablePaths });
  return new BubblewrapSandbox({
    policy: { ...policy, writablePaths, readablePaths },
    workspace,
    bwrap: support.bwrap,
    sizesTmpfs: versionAtLeast(support.version, [0, 8, 0]),
    layout,
    cgroups,
    ...(options.onNetworkDenied === undefined ? {} : { onNetworkDenied: options.onNetworkDenied }),
  });
}
