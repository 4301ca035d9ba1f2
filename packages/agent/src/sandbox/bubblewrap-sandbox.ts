import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildBwrapArgs, policyMounts } from './bwrap-args.js';
import { parseHostPattern } from './host-allowlist.js';
import type { AllowlistProxy, DeniedConnection, UpstreamLookup } from './internal/allowlist-proxy.js';
import { type CgroupHierarchies, createSandboxCgroups, type SandboxCgroups } from './internal/cgroups.js';
import { holdPolicyMounts, type MountKind, mountKindAt, releasePolicyMounts } from './internal/held-policy-mount.js';
import type { HostLayout } from './internal/host-layout.js';
import { splitCommandEnvironment } from './internal/host-side-environment.js';
import { buildLauncher, FIRST_MOUNT_FD, SECCOMP_FD } from './internal/launcher.js';
import { withMountTableRead } from './internal/mount-table-read.js';
import {
  checkPolicyAroundPrivateRoot,
  privateRootHiddenIn,
  processPrivateDirectory,
} from './internal/private-directory.js';
import { PROXY_BRIDGE_SOURCE } from './internal/proxy-bridge-source.js';
import { seccompFilterFile } from './internal/seccomp-filter.js';
import { signalSandboxedProcesses } from './internal/signal-sandboxed.js';
import type { PreparedCommand, Sandbox, SandboxCommand, SandboxSpawnOptions } from './sandbox.js';
import { SandboxCommandError } from './sandbox-command-error.js';
import { SandboxLimitUnavailableError } from './sandbox-limit-unavailable-error.js';
import { type ResolvedSandboxLimits, resolveSandboxLimits, warnUnlimitedSandboxLimits } from './sandbox-limits.js';
import type { SandboxPolicy } from './sandbox-policy.js';

/** Where the allowlist's private directory (proxy socket, bridge script) appears inside the sandbox. */
const CONTROL_DIRECTORY = '/run/x-sandbox';
/** Threads of the bridge's `node` (V8 and libuv workers) counted against the cgroup's pids.max. */
const BRIDGE_TASKS = 16;
/** The two bubblewrap processes (the outer monitor and the namespace's init). */
const SUPERVISOR_TASKS = 2;

let warnedNoProcessLimit = false;

export interface BubblewrapSandboxOptions {
  policy: SandboxPolicy;
  workspace: string;
  bwrap: string;
  /** bubblewrap's `--size` (0.8.0 and later): the sandbox's /tmp is sized to the memory limit. */
  sizesTmpfs: boolean;
  layout: HostLayout;
  cgroups: CgroupHierarchies;
  onNetworkDenied?: (denied: DeniedConnection) => void;
  /** The shell that runs the launcher (`buildLauncher`): bash where there is one, else /bin/sh; the tests choose. */
  launcherShell?: string;
  /** How the allowlist's proxy resolves and classes an admitted name's addresses: the system's unless a test says. */
  upstreamLookup?: UpstreamLookup;
  /** Whether the server runs as root (the kernel then ignores RLIMIT_NPROC): this process's uid unless a test says. */
  runsAsRoot?: boolean;
}

function isInside(path: string, roots: readonly string[]): boolean {
  return roots.some((root) => root === '/' || path === root || path.startsWith(`${root}/`));
}

/** Every command runs in its own bubblewrap sandbox: see the package README, section "Sandbox". */
export class BubblewrapSandbox implements Sandbox {
  readonly kind = 'bubblewrap' as const;
  readonly policy: SandboxPolicy;
  readonly workspace: string;
  readonly #options: BubblewrapSandboxOptions;
  readonly #live = new Set<{ child?: ChildProcess; release: () => Promise<void> }>();
  #control: Promise<{ directory: string; proxy: AllowlistProxy }> | undefined;
  #disposed = false;
  /** Every host directory this sandbox mounts, where the host's private root of the sandboxes may show. */
  readonly #mounted: readonly string[];
  /** What each path of the policy was when the sandbox was made, by path: what it must still be at each command. */
  readonly #mountKinds = new Map<string, MountKind | undefined>();
  /** The policy's limits with the defaults applied (see `resolveSandboxLimits`). */
  readonly #limits: ResolvedSandboxLimits;

  constructor(options: BubblewrapSandboxOptions) {
    this.#options = options;
    this.policy = options.policy;
    this.workspace = options.workspace;
    this.#limits = resolveSandboxLimits(options.policy.limits);
    warnUnlimitedSandboxLimits(options.policy.limits);
    const { layout } = options;
    const mounted = [
      ...layout.systemEntries.flatMap((entry) => (entry.kind === 'directory' ? [entry.path] : [])),
      ...options.policy.readablePaths,
      ...options.policy.writablePaths,
      options.workspace,
    ];
    this.#mounted = mounted;
    for (const { path } of policyMounts(this.#mountPaths())) this.#mountKinds.set(path, mountKindAt(path));
  }

  #mountPaths() {
    return {
      workspace: this.workspace,
      writablePaths: this.policy.writablePaths,
      readablePaths: this.policy.readablePaths,
    };
  }

  /** The proxy starts with the first command that needs it, so a sandbox that runs nothing costs nothing. */
  #startControl(): Promise<{ directory: string; proxy: AllowlistProxy }> {
    const network = this.policy.network;
    if (network.mode !== 'allowlist') throw new Error('unreachable: no allowlist');
    this.#control ??= (async () => {
      // Under this process's private directory, which every sandbox hides (see `privateRootHiddenIn`).
      const directory = await mkdtemp(join(processPrivateDirectory(), 'allowlist-'));
      await writeFile(join(directory, 'bridge.cjs'), PROXY_BRIDGE_SOURCE, { mode: 0o444 });
      const hosts = network.hosts.flatMap((host) => {
        const pattern = parseHostPattern(host);
        return pattern === undefined ? [] : [pattern];
      });
      // Loaded here, not with the package: `node:http` and `node:net` are needed only by an allowlist's proxy, and
      // on Node 22 importing `node:http` as an ES module also loads undici (~30 ms of every process's start).
      const { startAllowlistProxy } = await import('./internal/allowlist-proxy.js');
      const proxy = await startAllowlistProxy({
        socketPath: join(directory, 'proxy.sock'),
        hosts,
        allowPrivateNetworks: network.allowPrivateNetworks,
        ...(this.#options.upstreamLookup === undefined ? {} : { lookup: this.#options.upstreamLookup }),
        onDenied: (denied) => this.#options.onNetworkDenied?.(denied),
      });
      return { directory, proxy };
    })();
    return this.#control;
  }

  #checkCwd(cwd: string): string {
    let real: string;
    try {
      real = realpathSync(cwd);
    } catch {
      throw new SandboxCommandError(`The command's directory ${cwd} does not exist on the host`);
    }
    const roots = [this.workspace, ...this.policy.writablePaths, ...this.policy.readablePaths];
    if (!isInside(real, roots))
      throw new SandboxCommandError(
        `The command's directory ${cwd} is outside the sandbox (workspace ${this.workspace}; writable ${JSON.stringify(this.policy.writablePaths)}; readable ${JSON.stringify(this.policy.readablePaths)})`,
      );
    return real;
  }

  /**
   * `perProcessMemory`: RLIMIT_DATA stands in for the memory limit only where no memory cgroup enforces it. Not
   * RLIMIT_AS: node, Go and the JVM reserve gigabytes of address space they never use, and would not start under it;
   * RLIMIT_DATA counts only the private writable memory (heap, anonymous mappings) a process can actually fill.
   */
  #limitArgs(perProcessMemory: boolean): string[] {
    const { cpuTimeSeconds, memoryBytes, fileSizeBytes, processes } = this.#limits;
    const args: string[] = [];
    // SIGXCPU at the soft limit (reported as `cpu_time`), SIGKILL a second later for a process that ignores it.
    if (cpuTimeSeconds !== undefined) args.push(`--cpu=${cpuTimeSeconds}:${cpuTimeSeconds + 1}`);
    if (memoryBytes !== undefined && perProcessMemory) args.push(`--data=${memoryBytes}`);
    if (fileSizeBytes !== undefined) args.push(`--fsize=${fileSizeBytes}`);
    if (processes !== undefined) args.push(`--nproc=${processes}`);
    return args.length === 0 ? [] : ['/usr/bin/prlimit', ...args, '--'];
  }

  async prepare(command: SandboxCommand): Promise<PreparedCommand> {
    if (this.#disposed) throw new SandboxCommandError('The sandbox was disposed; it runs nothing more');
    const cwd = this.#checkCwd(command.cwd);
    const { layout } = this.#options;
    const network = this.policy.network.mode;
    const control = network === 'allowlist' ? await this.#startControl() : undefined;
    const bridge =
      control === undefined ? [] : [layout.node, `${CONTROL_DIRECTORY}/bridge.cjs`, `${CONTROL_DIRECTORY}/proxy.sock`];
    const { processes, memoryBytes } = this.#limits;
    const cgroups: SandboxCgroups = await createSandboxCgroups(
      this.#options.cgroups,
      `x-sandbox-${process.pid}-${randomBytes(6).toString('hex')}`,
      {
        ...(processes === undefined
          ? {}
          : { processes: processes + SUPERVISOR_TASKS + (control === undefined ? 0 : BRIDGE_TASKS) }),
        ...(memoryBytes === undefined ? {} : { memoryBytes }),
      },
    );
    if (this.#disposed) {
      // Disposed while this command was being set up: `dispose` did not see it, so nothing else would release it.
      await cgroups.release();
      throw new SandboxCommandError('The sandbox was disposed; it runs nothing more');
    }
    if (processes !== undefined && !cgroups.enforcesProcesses) {
      // The kernel exempts root from RLIMIT_NPROC: nothing would bound a fork bomb but the wall time, if any.
      if (this.#options.runsAsRoot ?? process.getuid?.() === 0) {
        await cgroups.release();
        throw new SandboxLimitUnavailableError(
          'processes',
          'the server runs as root, which the kernel exempts from RLIMIT_NPROC, and no pids cgroup could be created (no writable cgroup v1 `pids` controller, nor a cgroup v2 one with `pids` delegated, under /sys/fs/cgroup)',
        );
      }
      warnNoProcessLimit();
    }
    const argv = [...bridge, ...this.#limitArgs(!cgroups.enforcesMemory), command.command, ...command.args];
    // The environment is the command's alone: bubblewrap passes it on, and it is readable inside as
    // /proc/1/environ, so the host's own must never reach the spawn. Its start-up variables (LD_PRELOAD…) would
    // act on the launcher and bubblewrap, outside the sandbox: bubblewrap sets those inside only.
    // PWD keeps `sh` from resetting it.
    const environment = splitCommandEnvironment(command.env);
    const seccompFile = seccompFilterFile();
    const paths = this.#mountPaths();
    // At each command, not once: a mount made below a mounted path since (see `mountPointsBelow`) is mounted with it.
    let hiddenPrivateRoot: string[];
    try {
      // Both checks on one read of the mount table (the command's, when a guard around the sandbox made it).
      hiddenPrivateRoot = withMountTableRead(() => {
        checkPolicyAroundPrivateRoot({
          writable: [this.workspace, ...this.policy.writablePaths],
          readable: this.policy.readablePaths,
        });
        return privateRootHiddenIn(this.#mounted);
      });
    } catch (error) {
      await cgroups.release();
      throw error;
    }
    const bwrapArgs = buildBwrapArgs({
      ...paths,
      cwd,
      network,
      ...layout,
      hiddenDirectories: [...layout.hiddenDirectories, ...hiddenPrivateRoot],
      ...(control === undefined ? {} : { control: { host: control.directory, sandbox: CONTROL_DIRECTORY } }),
      setenv: environment.inside,
      ...(memoryBytes === undefined || !this.#options.sizesTmpfs ? {} : { tmpSizeBytes: memoryBytes }),
      ...(seccompFile === undefined ? {} : { seccompFd: SECCOMP_FD }),
      firstMountDescriptor: FIRST_MOUNT_FD,
      argv,
    });
    // Held open by this process until the command ends, for its launcher to reopen (see `HeldPolicyMount`).
    let mounts: ReturnType<typeof holdPolicyMounts>;
    try {
      mounts = holdPolicyMounts(
        policyMounts(paths).map(({ path }) => ({ path, expected: this.#mountKinds.get(path) })),
      );
    } catch (error) {
      await cgroups.release();
      throw error;
    }
    let released = false;
    const entry = {
      release: async () => {
        if (released) return;
        released = true;
        this.#live.delete(entry);
        releasePolicyMounts(mounts);
        await cgroups.release();
      },
    };
    this.#live.add(entry);
    // The launcher closes every inherited descriptor past stdio and joins the cgroups before becoming bubblewrap,
    // so nothing the sandbox forks can start outside them. A cgroup that enforces a limit must be joined (else
    // exit 125); the one kept only for `cgroup.kill` may not be. It reopens each path of the policy this process
    // holds, checks it is still where the policy found it, and bubblewrap mounts that descriptor (see `policyMounts`).
    const launcher = buildLauncher({
      bwrap: this.#options.bwrap,
      args: bwrapArgs,
      cgroups: cgroups.procsFiles,
      mounts: mounts.map((mount, index) => ({
        descriptor: FIRST_MOUNT_FD + index,
        ...('held' in mount
          ? { path: mount.path, source: `/proc/${process.pid}/fd/${mount.held}` }
          : { path: mount.path, refused: mount.refused }),
      })),
      ...(seccompFile === undefined ? {} : { seccompFile }),
      ...(this.#options.launcherShell === undefined ? {} : { shell: this.#options.launcherShell }),
    });
    return {
      command: launcher.command,
      args: launcher.args,
      cwd,
      env: { ...environment.host, PWD: cwd },
      release: entry.release,
      limitsHit: () => cgroups.limitsHit(),
      kill: () => cgroups.kill(),
    };
  }

  async spawn(options: SandboxSpawnOptions): Promise<ChildProcess> {
    // Loaded on first use, not at import (see runSandboxed).
    const { spawn } = await import('node:child_process');
    const prepared = await this.prepare(options);
    const child = spawn(prepared.command, prepared.args, {
      cwd: prepared.cwd,
      env: prepared.env,
      detached: true,
      stdio: options.stdio ?? 'pipe',
    });
    const entry = { child, release: prepared.release };
    this.#live.add(entry);
    const done = (): void => {
      this.#live.delete(entry);
      void prepared.release();
    };
    child.once('exit', done);
    child.once('error', done);
    return child;
  }

  signal(pid: number, signal: NodeJS.Signals): void {
    signalSandboxedProcesses(pid, signal);
  }

  async dispose(): Promise<void> {
    this.#disposed = true;
    const entries = [...this.#live];
    for (const { child } of entries) {
      if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
      try {
        // The outer bubblewrap leads its group; its death kills the namespace's init, and with it every process.
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    await Promise.all(entries.map((entry) => entry.release()));
    if (this.#control !== undefined) {
      const { directory, proxy } = await this.#control;
      await proxy.close();
      await rm(directory, { recursive: true, force: true });
    }
  }
}

/** For a server that is not root: RLIMIT_NPROC still bounds the sandbox, less exactly than a cgroup. */
function warnNoProcessLimit(): void {
  if (warnedNoProcessLimit) return;
  warnedNoProcessLimit = true;
  process.emitWarning(
    "The sandbox's process limit is not enforced by a cgroup here (no writable pids controller under /sys/fs/cgroup): only RLIMIT_NPROC bounds a fork bomb, per process and counted by user.",
    { code: 'X_SANDBOX_NO_PROCESS_LIMIT' },
  );
}
