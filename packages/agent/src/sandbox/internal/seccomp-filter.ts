import { randomBytes } from 'node:crypto';
import { openSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processPrivateDirectory } from './private-directory.js';

/**
 * The seccomp filter every sandboxed command runs under (bubblewrap's `--seccomp`, applied just before it execs
 * the command, after its own setup). Namespaces and dropped capabilities confine what a command sees; the kernel's
 * whole system-call surface stays reachable, and a kernel bug in a rarely used call is a way out of any namespace.
 * The filter refuses, with EPERM, the calls an agent's commands have no use for and that carry that risk (the same
 * families Docker's default profile refuses):
 *
 * - debugging and reaching into other processes: `ptrace`, `process_vm_readv`/`writev`, `process_madvise`,
 *   `pidfd_getfd` (takes a copy of another process's descriptor), `kcmp` (compares kernel objects across processes);
 * - namespaces: `unshare`, `setns`, and `clone` with any `CLONE_NEW*` flag (bubblewrap's `--disable-userns` and the
 *   dropped capabilities refuse them too, but from inside the kernel's namespace code, long a source of
 *   privilege escalations; here they never reach it). `clone3` passes its flags in memory, which a filter cannot
 *   read: it fails with ENOSYS, as under Docker, so that glibc (2.34 and later tries it first for threads and
 *   `posix_spawn`) falls back to `clone`, whose flags the filter does read;
 * - the kernel's log (`syslog`: the host's messages, where `kernel.dmesg_restrict` is 0);
 * - the kernel keyring, shared by every process of the user outside any namespace: `keyctl`, `add_key`,
 *   `request_key`;
 * - programs and events loaded into the kernel: `bpf`, `perf_event_open`, `userfaultfd`, `io_uring_*`;
 * - the machine itself: modules, `kexec_*`, `reboot`, swap, clocks, host and domain names, quotas, accounting,
 *   I/O ports (`iopl`, `ioperm`, x86-64 only);
 * - mounts (`mount`, `umount2`, `pivot_root`, the new mount API) and file handles that bypass paths
 *   (`open_by_handle_at`, `name_to_handle_at`);
 * - `socket` of the `AF_VSOCK` family (as Docker's profile): a network namespace does not hold vsock, so on a
 *   virtual machine it reaches the hypervisor's host (and its services) under `network: 'none'` too;
 * - a setuid or setgid bit, set (`chmod`, `fchmod`, `fchmodat`, `fchmodat2`) or created with a file (`open`, `openat`,
 *   `creat`, `mknod`, `mknodat`): the sandbox's user is the server's own on the host (root for a server run as root),
 *   so a set-id program made in the workspace is one of the server's identity on the host, for whoever runs it there.
 *   `openat2` passes its mode in memory, which a filter cannot read: it fails with ENOSYS, as on a kernel before 5.6,
 *   and callers fall back to `openat`.
 *
 * A call made through another ABI than the machine's own (a 32-bit binary's `int 0x80` on x86-64, x32) kills the
 * process: its numbers mean other calls, which this list does not know. On a machine other than x86-64 and
 * aarch64 there is no filter (`seccompProgram` is undefined) and the README says so.
 */
const DENIED: Record<'x64' | 'arm64', Record<string, number>> = {
  x64: {
    ptrace: 101,
    process_vm_readv: 310,
    process_vm_writev: 311,
    process_madvise: 440,
    pidfd_getfd: 438,
    kcmp: 312,
    unshare: 272,
    setns: 308,
    syslog: 103,
    keyctl: 250,
    add_key: 248,
    request_key: 249,
    bpf: 321,
    perf_event_open: 298,
    userfaultfd: 323,
    io_uring_setup: 425,
    io_uring_enter: 426,
    io_uring_register: 427,
    kexec_load: 246,
    kexec_file_load: 320,
    init_module: 175,
    finit_module: 313,
    delete_module: 176,
    reboot: 169,
    swapon: 167,
    swapoff: 168,
    settimeofday: 164,
    clock_settime: 227,
    adjtimex: 159,
    clock_adjtime: 305,
    sethostname: 170,
    setdomainname: 171,
    quotactl: 179,
    quotactl_fd: 443,
    acct: 163,
    lookup_dcookie: 212,
    iopl: 172,
    ioperm: 173,
    mount: 165,
    umount2: 166,
    pivot_root: 155,
    open_tree: 428,
    move_mount: 429,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    fspick: 433,
    mount_setattr: 442,
    open_by_handle_at: 304,
    name_to_handle_at: 303,
  },
  arm64: {
    ptrace: 117,
    process_vm_readv: 270,
    process_vm_writev: 271,
    process_madvise: 440,
    pidfd_getfd: 438,
    kcmp: 272,
    unshare: 97,
    setns: 268,
    syslog: 116,
    keyctl: 219,
    add_key: 217,
    request_key: 218,
    bpf: 280,
    perf_event_open: 241,
    userfaultfd: 282,
    io_uring_setup: 425,
    io_uring_enter: 426,
    io_uring_register: 427,
    kexec_load: 104,
    kexec_file_load: 294,
    init_module: 105,
    finit_module: 273,
    delete_module: 106,
    reboot: 142,
    swapon: 224,
    swapoff: 225,
    settimeofday: 170,
    clock_settime: 112,
    adjtimex: 171,
    clock_adjtime: 266,
    sethostname: 161,
    setdomainname: 162,
    quotactl: 60,
    quotactl_fd: 443,
    acct: 89,
    lookup_dcookie: 18,
    mount: 40,
    umount2: 39,
    pivot_root: 41,
    open_tree: 428,
    move_mount: 429,
    fsopen: 430,
    fsconfig: 431,
    fsmount: 432,
    fspick: 433,
    mount_setattr: 442,
    open_by_handle_at: 265,
    name_to_handle_at: 264,
  },
};

/**
 * Refused with ENOSYS, not EPERM (the same numbers on both machines), so that a caller takes it for an older kernel
 * and falls back to a call whose arguments the filter reads: `clone3` (glibc falls back to `clone`, as under
 * Docker's profile), `openat2` (to `openat`: its mode is in memory).
 */
const UNREADABLE: Record<string, number> = { clone3: 435, openat2: 437 };
/** `clone` itself: allowed (every fork and thread), unless its flags ask for a namespace. */
const CLONE: Record<'x64' | 'arm64', number> = { x64: 56, arm64: 220 };
/** `socket`: allowed, unless its domain (the first argument) is `AF_VSOCK`. */
const SOCKET: Record<'x64' | 'arm64', number> = { x64: 41, arm64: 198 };
const AF_VSOCK = 40;
/** `S_ISUID | S_ISGID`: the bits that make a file run as its owner or group. */
const SET_ID_BITS = 0o6000;
/** The calls that set a file's mode or create one with a mode, and which argument holds the mode. */
const MODE_ARGUMENT: Record<'x64' | 'arm64', Record<string, { number: number; argument: number }>> = {
  x64: {
    open: { number: 2, argument: 2 },
    creat: { number: 85, argument: 1 },
    chmod: { number: 90, argument: 1 },
    fchmod: { number: 91, argument: 1 },
    mknod: { number: 133, argument: 1 },
    openat: { number: 257, argument: 3 },
    mknodat: { number: 259, argument: 2 },
    fchmodat: { number: 268, argument: 2 },
    fchmodat2: { number: 452, argument: 2 },
  },
  arm64: {
    mknodat: { number: 33, argument: 2 },
    fchmod: { number: 52, argument: 1 },
    fchmodat: { number: 53, argument: 2 },
    openat: { number: 56, argument: 3 },
    fchmodat2: { number: 452, argument: 2 },
  },
};
/**
 * `CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET`, Docker's
 * mask (`CLONE_NEWTIME` shares its bit with the exit signal in `clone`'s flags, and is only for `clone3`/`unshare`).
 */
const CLONE_NAMESPACE_FLAGS = 0x7e020000;

/** `AUDIT_ARCH_*`: the ABI a call was made through, as `seccomp_data.arch` gives it. */
const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
/** x86-64's x32 ABI: call numbers with this bit set. */
const X32_SYSCALL_BIT = 0x40000000;

// Classic BPF (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO_EPERM = 0x00050000 | 1;
const RET_ERRNO_ENOSYS = 0x00050000 | 38;
/**
 * Offsets in `struct seccomp_data`: the call's number, its ABI, and the low 32 bits of its arguments (both machines
 * are little-endian; every namespace flag and mode bit is in the low half).
 */
const NR = 0;
const ARCH = 4;
const argumentLow = (index: number): number => 16 + 8 * index;

type Instruction = [code: number, jt: number, jf: number, k: number];
/**
 * Where a comparison jumps: the next instruction, past the check of one call's argument (`{ after }`, the index of
 * the comparison after it), or one of the returns at the end.
 */
type Target = 'next' | { after: number } | 'allow' | 'eperm' | 'enosys';
type Comparison = [code: number, jt: Target, jf: Target, k: number];

/**
 * The names of the calls the filter refuses outright on `arch` (for the README and the tests): EPERM, or ENOSYS for
 * those `unreadableSystemCalls` names. Those refused by an argument (`clone`, `socket`, the mode setters) are not.
 */
export function deniedSystemCalls(arch: string = process.arch): readonly string[] {
  return arch === 'x64' || arch === 'arm64' ? [...Object.keys(DENIED[arch]), ...Object.keys(UNREADABLE)] : [];
}

/** The calls refused with ENOSYS rather than EPERM: their arguments are in memory (`clone3`, `openat2`). */
export function unreadableSystemCalls(): readonly string[] {
  return Object.keys(UNREADABLE);
}

/** The calls refused when their mode argument carries a setuid or setgid bit, on `arch`, by name. */
export function modeCheckedSystemCalls(
  arch: string = process.arch,
): Readonly<Record<string, { number: number; argument: number }>> {
  return arch === 'x64' || arch === 'arm64' ? MODE_ARGUMENT[arch] : {};
}

/** The filter as bubblewrap reads it (`struct sock_filter[]`, native byte order), or undefined on another arch. */
export function seccompProgram(arch: string = process.arch): Buffer | undefined {
  if (arch !== 'x64' && arch !== 'arm64') return undefined;
  const head: Instruction[] = [
    [LD_W_ABS, 0, 0, ARCH],
    [JEQ_K, 1, 0, AUDIT_ARCH[arch]],
    [RET_K, 0, 0, RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, NR],
  ];
  // x32 shares x86-64's AUDIT_ARCH: its calls are told apart by the bit in their number, and killed like any
  // other foreign ABI's (the numbers below are x86-64's own, which x32's are not).
  if (arch === 'x64') head.push([JGE_K, 0, 1, X32_SYSCALL_BIT], [RET_K, 0, 0, RET_KILL_PROCESS]);
  // The calls decided by an argument are looked at first: loading an argument replaces the call's number in the
  // accumulator, so the argument's test decides, and no comparison of numbers below ever sees an argument.
  const comparisons: Comparison[] = [];
  const byArgument = (number: number, argument: number, test: [code: number, k: number]): void => {
    const after = comparisons.length + 3;
    comparisons.push(
      [JEQ_K, 'next', { after }, number],
      [LD_W_ABS, 'next', 'next', argumentLow(argument)],
      [test[0], 'eperm', 'allow', test[1]],
    );
  };
  byArgument(CLONE[arch], 0, [JSET_K, CLONE_NAMESPACE_FLAGS]);
  byArgument(SOCKET[arch], 0, [JEQ_K, AF_VSOCK]);
  for (const { number, argument } of Object.values(MODE_ARGUMENT[arch]))
    byArgument(number, argument, [JSET_K, SET_ID_BITS]);
  for (const number of Object.values(UNREADABLE)) comparisons.push([JEQ_K, 'enosys', 'next', number]);
  for (const number of Object.values(DENIED[arch])) comparisons.push([JEQ_K, 'eperm', 'next', number]);
  const at = { allow: comparisons.length, eperm: comparisons.length + 1, enosys: comparisons.length + 2 };
  // Offsets are relative to the instruction after the jump, so the head before them changes none.
  const jump = (target: Target, index: number): number => {
    const to = target === 'next' ? index + 1 : typeof target === 'object' ? target.after : at[target];
    return to - index - 1;
  };
  const program: Instruction[] = [
    ...head,
    ...comparisons.map(([code, jt, jf, k], index): Instruction => [code, jump(jt, index), jump(jf, index), k]),
    [RET_K, 0, 0, RET_ALLOW],
    [RET_K, 0, 0, RET_ERRNO_EPERM],
    [RET_K, 0, 0, RET_ERRNO_ENOSYS],
  ];
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    // A jump of classic BPF is one byte: a list past 255 calls needs another layout, never a wrapped offset.
    if (jt > 255 || jf > 255) throw new Error(`unreachable: a jump of ${Math.max(jt, jf)} in the seccomp filter`);
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jt, index * 8 + 2);
    bytes.writeUInt8(jf, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}

let written: string | undefined | null = null;

/**
 * Where the launcher opens the filter (for bubblewrap's `--seccomp`): `/proc/<pid>/fd/<n>`, a descriptor this
 * process holds on the filter's file, whose name is gone; undefined where there is no filter for this machine.
 *
 * Written once per process in its private directory (`processPrivateDirectory`), opened, and unlinked: nothing is
 * left on disk for a command to replace (the next command's filter) or for a killed process to leave behind, and
 * opening it through this process's descriptor does not resolve any directory a sandbox could rename.
 */
export function seccompFilterFile(): string | undefined {
  if (written !== null) return written;
  const program = seccompProgram();
  if (program === undefined) {
    written = undefined;
    return written;
  }
  const file = join(processPrivateDirectory(), `filter-${randomBytes(6).toString('hex')}.bpf`);
  writeFileSync(file, program, { mode: 0o400, flag: 'wx' });
  let descriptor: number;
  try {
    descriptor = openSync(file, 'r');
  } finally {
    unlinkSync(file);
  }
  written = `/proc/${process.pid}/fd/${descriptor}`;
  return written;
}
