import { z } from 'zod';

/** A limit's figure, or `'unlimited'`: the explicit, warned-about choice to turn it off. */
const limitValue = z.union([z.number().int().positive(), z.literal('unlimited')]);

/**
 * Resource limits of one sandboxed command (or one persistent shell and everything it starts). A limit left out
 * takes its default (`DEFAULT_SANDBOX_LIMITS`; none for wall time, CPU time and output); `'unlimited'` turns it
 * off, with a warning (`X_SANDBOX_LIMIT_OFF`) once per process for each limit so turned off.
 */
export const sandboxLimitsSchema = z
  .object({
    /** Wall time of a one-shot command, in milliseconds; the whole process tree is killed at it. */
    wallTimeMs: limitValue.optional(),
    /** CPU time per process, in seconds (RLIMIT_CPU). */
    cpuTimeSeconds: limitValue.optional(),
    /**
     * Memory of the whole sandbox, in bytes (default 4 GiB), by a memory cgroup where one is writable; else
     * RLIMIT_DATA per process (not RLIMIT_AS: runtimes reserve far more address space than they use).
     */
    memoryBytes: limitValue.optional(),
    /** Largest file a process may write, in bytes (RLIMIT_FSIZE; default 4 GiB). */
    fileSizeBytes: limitValue.optional(),
    /**
     * Most processes (threads count) alive at once in the sandbox, besides its own supervisors (default 1,024): a
     * cgroup's pids.max where one is writable, and RLIMIT_NPROC (which the kernel does not apply to a root server:
     * a root server with no pids cgroup refuses to run a command under a process limit).
     */
    processes: limitValue.optional(),
    /** Output bytes kept from stdout + stderr of a one-shot command; past it the command is killed. */
    outputBytes: limitValue.optional(),
  })
  .strict();
export type SandboxLimits = z.infer<typeof sandboxLimitsSchema>;
export type SandboxLimitName = keyof SandboxLimits;

/** The limits in force: a figure for each one on, absent for each one off. */
export type ResolvedSandboxLimits = { [Name in SandboxLimitName]?: number };

const GIB = 1024 ** 3;

/**
 * What a limit left out of a policy is. Memory and file size: 4 GiB, room for a compiler, a test suite or a
 * language server on a developer's machine, and well short of taking a server's memory or disk. Processes: 1,024
 * (threads count), past any build's parallelism (`make -j`, a JVM's or node's worker threads) yet a fork bomb's
 * ceiling. Wall time, CPU time and output have none: a persistent shell or an MCP server runs for as long as the
 * conversation, and the terminal tool and hooks bound each command themselves.
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<ResolvedSandboxLimits> = Object.freeze({
  memoryBytes: 4 * GIB,
  fileSizeBytes: 4 * GIB,
  processes: 1024,
});

const LIMIT_NAMES: readonly SandboxLimitName[] = [
  'wallTimeMs',
  'cpuTimeSeconds',
  'memoryBytes',
  'fileSizeBytes',
  'processes',
  'outputBytes',
];

/**
 * The limits a policy puts in force: each given figure, the default for each left out (so a policy recorded
 * before the defaults, with `limits: {}`, gets them too), nothing for each `'unlimited'`. Applied at use, never
 * written back: a recorded policy reads back as it was given.
 */
export function resolveSandboxLimits(limits: SandboxLimits): ResolvedSandboxLimits {
  const resolved: ResolvedSandboxLimits = {};
  for (const name of LIMIT_NAMES) {
    const value = limits[name] ?? DEFAULT_SANDBOX_LIMITS[name];
    if (typeof value === 'number') resolved[name] = value;
  }
  return resolved;
}

/** The limits a policy turns off explicitly (`'unlimited'`). */
export function unlimitedSandboxLimits(limits: SandboxLimits): SandboxLimitName[] {
  return LIMIT_NAMES.filter((name) => limits[name] === 'unlimited');
}

const warned = new Set<SandboxLimitName>();

/** Warns (`X_SANDBOX_LIMIT_OFF`) once per process for each limit a sandbox's policy turns off. */
export function warnUnlimitedSandboxLimits(limits: SandboxLimits): void {
  for (const name of unlimitedSandboxLimits(limits)) {
    if (warned.has(name)) continue;
    warned.add(name);
    const fallback = DEFAULT_SANDBOX_LIMITS[name];
    process.emitWarning(
      `The sandbox's ${name} limit is OFF ('unlimited' in the sandbox policy${
        fallback === undefined ? '' : `; the default is ${fallback}`
      }): nothing holds a command the agent runs to it, and one that runs away (a fork bomb, a memory hog, a file filling the disk) can take the server down.`,
      { code: 'X_SANDBOX_LIMIT_OFF' },
    );
  }
}
