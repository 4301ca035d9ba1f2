import { realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import {
  detectSandboxSupport,
  InvalidSandboxPolicyError,
  openDefaultSandbox,
  type SandboxOpener,
  type SandboxPolicy,
  type SandboxPolicyInput,
  type SandboxSupport,
  sandboxPolicySchema,
  warnUnsandboxedOnce,
} from '@x/agent';
import { InvalidRequestError } from '../conversations/errors/invalid-request-error.js';
import { SandboxRequiredError } from './sandbox-required-error.js';

/** How the server runs the processes of conversations and of the shell route. */
export interface ServerSandboxing {
  /** `sandboxed`: bubblewrap; `unsandboxed`: the operator's explicit opt-out; `unavailable`: tools are refused. */
  readonly mode: 'sandboxed' | 'unsandboxed' | 'unavailable';
  /** Why no sandbox is available (with `unavailable`, and `unsandboxed` on a host without one). */
  readonly reason: string | undefined;
  readonly open: SandboxOpener;
  /** Throws `SandboxRequiredError` when tools may not run. */
  assertCanRun(): void;
  /**
   * The policy of a conversation from its create request (or meta.json): the server's opt-out forces
   * `unsandboxed`; a request cannot opt out itself, nor expose the server's data directory.
   */
  policyFor(requested: SandboxPolicyInput | null | undefined): SandboxPolicy;
  /**
   * The policy of a stored conversation (meta.json), under what the server allows now: never throws, so a
   * conversation created under another configuration still opens (a stored opt-out is sandboxed again here).
   */
  storedPolicy(stored: unknown): SandboxPolicy;
}

export interface ServerSandboxingOptions {
  /** `x serve --unsandboxed`: run tools without a sandbox (warned about loudly). */
  unsandboxed: boolean;
  /** The server's data directory: never mounted into a sandbox. */
  dataDir: string;
  /** The workspace root: the one part of the data directory a sandbox's workspace may lie in (when it lies there). */
  workspaceRoot?: string;
  /** Whether this host can sandbox (default `detectSandboxSupport`); tests inject a failing probe. */
  probe?: () => Promise<SandboxSupport>;
  /** Opens a sandbox (default `openDefaultSandbox`). */
  open?: SandboxOpener;
  warn: (message: string) => void;
}

/**
 * A path as the sandbox will mount it: with every symlink followed (bubblewrap follows them), else as written
 * (a path that does not exist is refused by the sandbox itself).
 */
function real(path: string): string {
  try {
    return realpathSync(resolve(path));
  } catch {
    return resolve(path);
  }
}

/** Whether `child` is `parent` or lies in it (both absolute). */
function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  // Out of `parent` only by `..` itself as the first step: `..cache` is a name inside it.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** Whether either path lies in the other, as written or once their symlinks are followed. */
function overlaps(path: string, directory: string): boolean {
  const pairs: [string, string][] = [
    [resolve(path), resolve(directory)],
    [real(path), real(directory)],
  ];
  return pairs.some(([one, other]) => inside(one, other) || inside(other, one));
}

/** Probes the host once, at start-up, and says loudly when tools will be refused or run unsandboxed. */
export async function resolveServerSandboxing(options: ServerSandboxingOptions): Promise<ServerSandboxing> {
  const openSandbox = options.open ?? openDefaultSandbox;
  // The paths of a request are checked when it is made (`policyFor`), but mounted later: one that did not exist yet,
  // or was a directory then, may since be a symlink into the data directory (left by a sandboxed command, in its
  // workspace or a writable /tmp). So they are checked again as the opened sandbox holds them (symlinks followed as
  // it mounts them, and held to that at every command).
  const open: SandboxOpener = async (request) => {
    const sandbox = await openSandbox(request);
    if (sandbox.kind === 'unsandboxed') return sandbox;
    // The workspace too: a working directory in another conversation's workspace may have been renamed and made a
    // symlink to the data directory by that conversation's command.
    const workspaceRoot = options.workspaceRoot === undefined ? undefined : real(options.workspaceRoot);
    const workspaceExposes =
      overlaps(sandbox.workspace, options.dataDir) &&
      (workspaceRoot === undefined || !inside(sandbox.workspace, workspaceRoot));
    const exposing = [
      ...(workspaceExposes ? [sandbox.workspace] : []),
      ...sandbox.policy.writablePaths,
      ...sandbox.policy.readablePaths,
    ].find((path) => overlaps(path, options.dataDir));
    if (exposing === undefined) return sandbox;
    await sandbox.dispose().catch(() => undefined);
    throw new InvalidSandboxPolicyError(
      `A sandbox path now leads to ${exposing}, which overlaps the server's data directory (a symlink put in its place since the policy was accepted); no sandbox may see it`,
    );
  };
  let mode: ServerSandboxing['mode'];
  let reason: string | undefined;
  if (options.unsandboxed) {
    mode = 'unsandboxed';
    warnUnsandboxedOnce('the server was started with --unsandboxed', options.warn);
  } else {
    const support = await (options.probe ?? detectSandboxSupport)();
    mode = support.available ? 'sandboxed' : 'unavailable';
    if (!support.available) {
      reason = support.reason;
      options.warn(new SandboxRequiredError(support.reason).message);
    }
  }
  return {
    mode,
    reason,
    open,
    assertCanRun() {
      if (mode === 'unavailable') throw new SandboxRequiredError(reason ?? 'unknown reason');
    },
    policyFor(requested) {
      const parsed = sandboxPolicySchema.safeParse(requested ?? {});
      if (!parsed.success) {
        const problems = parsed.error.issues.map(
          (issue) => `${['sandbox', ...issue.path].join('.')}: ${issue.message}`,
        );
        throw new InvalidRequestError(`Invalid sandbox policy: ${problems.join('; ')}`, {
          statusCode: 422,
          loc: ['body', 'sandbox'],
        });
      }
      const policy = parsed.data;
      if (policy.mode === 'unsandboxed' && mode !== 'unsandboxed') {
        throw new InvalidRequestError(
          "sandbox.mode 'unsandboxed': only the server's operator can run tools without a sandbox (x serve --unsandboxed)",
        );
      }
      for (const path of [...policy.writablePaths, ...policy.readablePaths]) {
        if (overlaps(path, options.dataDir)) {
          throw new InvalidRequestError(
            `sandbox path '${path}' overlaps the server's data directory, which no sandbox may see`,
          );
        }
      }
      return mode === 'unsandboxed' ? { ...policy, mode: 'unsandboxed' } : policy;
    },
    storedPolicy(stored) {
      const parsed = sandboxPolicySchema.safeParse(stored ?? {});
      const policy = parsed.success ? parsed.data : sandboxPolicySchema.parse({});
      // Checked again, as a request's is: the data directory may have moved (or a symlink changed) since.
      const visible = (path: string): boolean => !overlaps(path, options.dataDir);
      return {
        ...policy,
        writablePaths: policy.writablePaths.filter(visible),
        readablePaths: policy.readablePaths.filter(visible),
        mode: mode === 'unsandboxed' ? 'unsandboxed' : 'sandboxed',
      };
    },
  };
}
