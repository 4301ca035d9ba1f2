import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The seccomp filter every sandboxed command runs under (bubblewrap's `--seccomp`, applied just before it execs
 * the command, after its own setup). Namespaces and dropped capabilities confine what a command sees; the kernel's
 * whole system-call surface stays reachable, and a kernel bug in a rarely used call is a way out of any namespace.
 * The filter refuses, with EPERM, the calls an agent's commands have no use for and that carry that risk (the same
 * families Docker's default profile refuses):
 *
 * - debugging and reading other processes' memory: `ptrace`, `process_vm_readv`/`writev`;
 * - the kernel keyring, shared by every process of the user outside any namespace: `keyctl`, `add_key`,
 *   `request_key`;
 * - programs and events loaded into the kernel: `bpf`, `perf_event_open`, `userfaultfd`, `io_uring_*`;
 * - the machine itself: modules, `kexec_*`, `reboot`, swap, clocks, host and domain names, quotas, accounting,
 *   I/O ports;
 * - mounts (`mount`, `umount2`, `pivot_root`, the new mount API) and file handles that bypass paths
 *   (`open_by_handle_at`, `name_to_handle_at`).
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

/** `AUDIT_ARCH_*`: the ABI a call was made through, as `seccomp_data.arch` gives it. */
const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7 } as const;
/** x86-64's x32 ABI: call numbers with this bit set. */
const X32_SYSCALL_BIT = 0x40000000;

// Classic BPF (linux/filter.h, linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO_EPERM = 0x00050000 | 1;
/** Offsets in `struct seccomp_data`. */
const NR = 0;
const ARCH = 4;

type Instruction = [code: number, jt: number, jf: number, k: number];

/** The names of the calls the filter refuses on `arch` (for the README and the tests). */
export function deniedSystemCalls(arch: string = process.arch): readonly string[] {
  return arch === 'x64' || arch === 'arm64' ? Object.keys(DENIED[arch]) : [];
}

/** The filter as bubblewrap reads it (`struct sock_filter[]`, native byte order), or undefined on another arch. */
export function seccompProgram(arch: string = process.arch): Buffer | undefined {
  if (arch !== 'x64' && arch !== 'arm64') return undefined;
  const numbers = Object.values(DENIED[arch]);
  const program: Instruction[] = [
    [LD_W_ABS, 0, 0, ARCH],
    [JEQ_K, 1, 0, AUDIT_ARCH[arch]],
    [RET_K, 0, 0, RET_KILL_PROCESS],
    [LD_W_ABS, 0, 0, NR],
  ];
  // x32 shares x86-64's AUDIT_ARCH: its calls are told apart by the bit in their number, and killed like any
  // other foreign ABI's (the numbers below are x86-64's own, which x32's are not).
  if (arch === 'x64') program.push([JGE_K, 0, 1, X32_SYSCALL_BIT], [RET_K, 0, 0, RET_KILL_PROCESS]);
  // Every comparison jumps to the EPERM return, after the last comparison and the ALLOW return.
  numbers.forEach((number, index) => {
    program.push([JEQ_K, numbers.length - index, 0, number]);
  });
  program.push([RET_K, 0, 0, RET_ALLOW], [RET_K, 0, 0, RET_ERRNO_EPERM]);
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach(([code, jt, jf, k], index) => {
    bytes.writeUInt16LE(code, index * 8);
    bytes.writeUInt8(jt, index * 8 + 2);
    bytes.writeUInt8(jf, index * 8 + 3);
    bytes.writeUInt32LE(k >>> 0, index * 8 + 4);
  });
  return bytes;
}

let written: string | undefined | null = null;

/**
 * The filter's file, written once per process in a private temporary directory (0700; removed at exit), which
 * the launcher opens for bubblewrap; undefined where there is no filter for this machine.
 */
export function seccompFilterFile(): string | undefined {
  if (written !== null) return written;
  const program = seccompProgram();
  if (program === undefined) {
    written = undefined;
    return written;
  }
  const directory = mkdtempSync(join(tmpdir(), 'x-seccomp-'));
  const file = join(directory, 'filter.bpf');
  writeFileSync(file, program, { mode: 0o400 });
  process.once('exit', () => rmSync(directory, { recursive: true, force: true }));
  written = file;
  return written;
}
