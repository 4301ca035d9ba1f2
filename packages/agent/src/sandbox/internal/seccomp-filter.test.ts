// The seccomp filter's program, run here by a classic-BPF interpreter on every call number, against the kernel's
// own numbering (perl's syscall.ph for this machine, the kernel headers' asm-generic table for aarch64): each
// call of the list is refused, every other one allowed, and another ABI killed. The real kernel applying it is
// test/sandbox-seccomp.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import {
  deniedSystemCalls,
  modeCheckedSystemCalls,
  seccompFilterFile,
  seccompProgram,
  unreadableSystemCalls,
} from './seccomp-filter.js';

const ALLOW = 0x7fff0000;
const KILL_PROCESS = 0x80000000;
const EPERM = 0x00050000 | 1;
const ENOSYS = 0x00050000 | 38;
const AUDIT_ARCH = { x64: 0xc000003e, arm64: 0xc00000b7, i386: 0x40000003 } as const;
const X32_BIT = 0x40000000;

/**
 * What the kernel does with one call under `program` (`struct sock_filter[]`), by classic BPF's rules; `arg0` is
 * the call's first argument (`clone`'s flags), `args` its arguments by index (a mode).
 */
function verdict(
  program: Buffer,
  call: { arch: number; nr: number; arg0?: number; args?: Record<number, number> },
): number {
  expect(program.length % 8).toBe(0);
  let accumulator = 0;
  for (let pc = 0; pc * 8 < program.length; pc += 1) {
    const code = program.readUInt16LE(pc * 8);
    const jt = program.readUInt8(pc * 8 + 2);
    const jf = program.readUInt8(pc * 8 + 3);
    const k = program.readUInt32LE(pc * 8 + 4);
    if (code === 0x20) {
      // BPF_LD | BPF_W | BPF_ABS: `struct seccomp_data` has nr at 0, arch at 4, args[i] at 16 + 8i (low half first).
      if (k === 0) accumulator = call.nr >>> 0;
      else if (k === 4) accumulator = call.arch >>> 0;
      else if (k >= 16 && k < 64 && (k - 16) % 8 === 0) {
        const index = (k - 16) / 8;
        accumulator = ((index === 0 ? call.arg0 : undefined) ?? call.args?.[index] ?? 0) >>> 0;
      } else throw new Error(`load of offset ${k}`);
    } else if (code === 0x15 || code === 0x35 || code === 0x45) {
      // BPF_JMP | BPF_JEQ / BPF_JGE / BPF_JSET | BPF_K
      const taken =
        code === 0x15 ? accumulator === k : code === 0x35 ? accumulator >= k : (accumulator & k) >>> 0 !== 0;
      pc += taken ? jt : jf;
    } else if (code === 0x06) {
      return k; // BPF_RET | BPF_K
    } else {
      throw new Error(`unknown instruction ${code.toString(16)} at ${pc}`);
    }
  }
  throw new Error('the program ran off its end');
}

/** This machine's call numbers by name, as perl's syscall.ph (generated from the kernel headers) has them. */
function nativeNumbers(names: readonly string[]): Map<string, number> {
  const result = spawnSync(
    'perl',
    ['-e', 'require "syscall.ph"; for (@ARGV) { print "$_ ", eval("&SYS_$_"), "\\n" }', ...names],
    { encoding: 'utf8' },
  );
  return new Map(
    result.stdout
      .trim()
      .split('\n')
      .map((line) => line.split(' '))
      .filter(([, number]) => number !== undefined && number !== '')
      .map(([name, number]) => [name as string, Number(number)]),
  );
}

/** aarch64's call numbers: the kernel's generic table, which the headers carry on every machine. */
function genericNumbers(): Map<string, number> {
  const header = readFileSync('/usr/include/asm-generic/unistd.h', 'utf8');
  const numbers = new Map<string, number>();
  for (const match of header.matchAll(/^#define __NR(?:3264)?_(\w+)\s+(\d+)$/gm))
    numbers.set(match[1] as string, Number(match[2]));
  return numbers;
}

const tables: { arch: 'x64' | 'arm64'; numbers: Map<string, number> }[] = [
  ...(process.arch === 'x64'
    ? [
        {
          arch: 'x64' as const,
          numbers: nativeNumbers([...deniedSystemCalls('x64'), 'mount_setattr', 'clone', 'socket', 'socketpair']),
        },
      ]
    : []),
  { arch: 'arm64', numbers: genericNumbers() },
];

describe.each(tables)('the filter for $arch', ({ arch, numbers }) => {
  const program = seccompProgram(arch) as Buffer;
  const own = AUDIT_ARCH[arch];

  const nr = (name: string): number => {
    const number = numbers.get(name);
    expect(number, `${name} is a call of ${arch}`).toBeDefined();
    return number as number;
  };

  it('refuses each call of its list with EPERM, clone3 and openat2 with ENOSYS, by the kernel numbering', () => {
    const names = deniedSystemCalls(arch);
    expect(names.length).toBeGreaterThan(30);
    expect(unreadableSystemCalls()).toEqual(['clone3', 'openat2']);
    for (const name of names)
      expect(verdict(program, { arch: own, nr: nr(name) }), name).toBe(
        unreadableSystemCalls().includes(name) ? ENOSYS : EPERM,
      );
  });

  it('refuses a setuid or setgid bit in the mode of every call that sets or creates one, and allows every other mode', () => {
    const calls = modeCheckedSystemCalls(arch);
    expect(Object.keys(calls)).toEqual(
      expect.arrayContaining(['fchmod', 'fchmodat', 'fchmodat2', 'openat', 'mknodat']),
    );
    for (const [name, { number, argument }] of Object.entries(calls)) {
      // The kernel's numbering, where this machine's headers know the call (fchmodat2 is newer than some).
      if (numbers.has(name)) expect(number, name).toBe(numbers.get(name));
      for (const mode of [0o4755, 0o2755, 0o6755, 0o4000, 0o2000, 0o104755])
        expect(
          verdict(program, { arch: own, nr: number, args: { [argument]: mode } }),
          `${name} ${mode.toString(8)}`,
        ).toBe(EPERM);
      for (const mode of [0, 0o755, 0o644, 0o1777, 0o777, 0o100644])
        expect(
          verdict(program, { arch: own, nr: number, args: { [argument]: mode } }),
          `${name} ${mode.toString(8)}`,
        ).toBe(ALLOW);
      // Only the mode's argument is looked at: a set-id bit in another one (a flag, a descriptor) is no mode.
      for (const other of [0, 1, 2, 3].filter((index) => index !== argument))
        expect(verdict(program, { arch: own, nr: number, args: { [other]: 0o6000 } }), `${name} arg ${other}`).toBe(
          ALLOW,
        );
    }
  });

  it("refuses what Docker's default profile refuses, among them the calls that reach into other processes or namespaces", () => {
    const docker = [
      ...['pidfd_getfd', 'process_madvise', 'kcmp', 'setns', 'unshare', 'ptrace', 'process_vm_readv'],
      ...['process_vm_writev', 'perf_event_open', 'bpf', 'userfaultfd', 'keyctl', 'add_key', 'request_key'],
      ...['open_by_handle_at', 'name_to_handle_at', 'kexec_load', 'kexec_file_load', 'init_module'],
      ...['finit_module', 'delete_module', 'swapon', 'swapoff', 'reboot', 'acct', 'quotactl', 'lookup_dcookie'],
      ...['syslog', ...(arch === 'x64' ? ['iopl', 'ioperm'] : [])],
    ];
    for (const name of docker) expect(verdict(program, { arch: own, nr: nr(name) }), name).toBe(EPERM);
    // Its flags are in memory the filter cannot read: ENOSYS, for glibc to fall back to `clone`.
    expect(verdict(program, { arch: own, nr: nr('clone3') })).toBe(ENOSYS);
  });

  it('refuses clone with any namespace flag, and allows the clones of fork, vfork and threads', () => {
    const namespaces = {
      CLONE_NEWNS: 0x00020000,
      CLONE_NEWCGROUP: 0x02000000,
      CLONE_NEWUTS: 0x04000000,
      CLONE_NEWIPC: 0x08000000,
      CLONE_NEWUSER: 0x10000000,
      CLONE_NEWPID: 0x20000000,
      CLONE_NEWNET: 0x40000000,
    };
    const SIGCHLD = 17;
    for (const [name, flag] of Object.entries(namespaces))
      expect(verdict(program, { arch: own, nr: nr('clone'), arg0: flag | SIGCHLD }), name).toBe(EPERM);
    // glibc's fork (CHILD_SETTID | CHILD_CLEARTID | SIGCHLD), posix_spawn (VM | VFORK | SIGCHLD), pthread_create.
    for (const flags of [0x01200011, 0x00004111, 0x003d0f00, SIGCHLD, 0])
      expect(verdict(program, { arch: own, nr: nr('clone'), arg0: flags }), flags.toString(16)).toBe(ALLOW);
    // The flag word is never taken for a call number: one equal to any refused call's number is still a plain clone.
    for (const name of deniedSystemCalls(arch))
      expect(verdict(program, { arch: own, nr: nr('clone'), arg0: nr(name) }), `flags ${name}`).toBe(ALLOW);
    // Nor is a refused call's argument looked at.
    expect(verdict(program, { arch: own, nr: nr('ptrace'), arg0: 0 })).toBe(EPERM);
  });

  it('refuses a socket of the vsock family (no network namespace holds it), and allows every other family', () => {
    const AF_VSOCK = 40;
    expect(verdict(program, { arch: own, nr: nr('socket'), arg0: AF_VSOCK })).toBe(EPERM);
    // AF_UNIX, AF_INET, AF_INET6, AF_NETLINK, AF_PACKET, and the families on either side of vsock's number.
    for (const family of [1, 2, 10, 16, 17, AF_VSOCK - 1, AF_VSOCK + 1])
      expect(verdict(program, { arch: own, nr: nr('socket'), arg0: family }), `family ${family}`).toBe(ALLOW);
    // The family is never taken for a call number: one equal to any refused call's number is still a plain socket.
    for (const name of deniedSystemCalls(arch))
      if (nr(name) !== AF_VSOCK)
        expect(verdict(program, { arch: own, nr: nr('socket'), arg0: nr(name) }), `family ${name}`).toBe(ALLOW);
    // Nor is the first argument of another call compared with vsock's number.
    expect(verdict(program, { arch: own, nr: nr('socketpair'), arg0: AF_VSOCK })).toBe(ALLOW);
  });

  it('refuses the whole mount API, old and new (mount_setattr included), as the README says', () => {
    const mountApi = ['mount', 'umount2', 'pivot_root', 'open_tree', 'move_mount', 'fsopen', 'fsconfig', 'fsmount'];
    for (const name of [...mountApi, 'fspick', 'mount_setattr'])
      expect(verdict(program, { arch: own, nr: nr(name) }), name).toBe(EPERM);
  });

  it('allows every other call (with a mode of 0 where the call has one)', () => {
    const denied = new Set(deniedSystemCalls(arch).map((name) => numbers.get(name)));
    for (let nr = 0; nr < 512; nr += 1)
      if (!denied.has(nr)) expect(verdict(program, { arch: own, nr }), `call ${nr}`).toBe(ALLOW);
  });

  it('kills a call made through another ABI', () => {
    const others = Object.values(AUDIT_ARCH).filter((value) => value !== own);
    for (const other of others)
      for (const nr of [0, 1, 39, 101, 117])
        expect(verdict(program, { arch: other, nr }), `${other.toString(16)} ${nr}`).toBe(KILL_PROCESS);
  });
});

describe('the x86-64 filter and the x32 ABI (its numbers carry a bit, its AUDIT_ARCH is x86-64 own)', () => {
  it('kills x32 calls, the refused and the harmless alike', () => {
    const program = seccompProgram('x64') as Buffer;
    for (const nr of [0, 1, 39, 101, 250, 0x3fffffff]) {
      expect(verdict(program, { arch: AUDIT_ARCH.x64, nr: X32_BIT + nr }), `x32 ${nr}`).toBe(KILL_PROCESS);
    }
    expect(verdict(program, { arch: AUDIT_ARCH.x64, nr: X32_BIT - 1 })).toBe(ALLOW);
  });
});

describe('another machine', () => {
  it('has no filter and no list', () => {
    for (const arch of ['riscv64', 'ia32', 'arm', 's390x']) {
      expect(seccompProgram(arch), arch).toBeUndefined();
      expect(deniedSystemCalls(arch), arch).toEqual([]);
    }
    expect(deniedSystemCalls('arm64')).toContain('ptrace');
    expect(deniedSystemCalls('x64')).toContain('ptrace');
  });
});

describe('the filter file on a machine without a filter', () => {
  it('is none, however often asked, and nothing is written', async () => {
    const arch = Object.getOwnPropertyDescriptor(process, 'arch') as PropertyDescriptor;
    vi.resetModules();
    Object.defineProperty(process, 'arch', { value: 'riscv64' });
    try {
      const fresh = await import('./seccomp-filter.js');
      expect(fresh.seccompFilterFile()).toBeUndefined();
      expect(fresh.seccompFilterFile()).toBeUndefined();
    } finally {
      Object.defineProperty(process, 'arch', arch);
      vi.resetModules();
    }
  });
});

describe('the filter file', () => {
  it('is written once, holds the program, and is held open by this process only: no name is left on disk', () => {
    const file = seccompFilterFile() as string;
    expect(seccompFilterFile()).toBe(file);
    expect(file).toMatch(new RegExp(`^/proc/${process.pid}/fd/\\d+$`));
    expect(readFileSync(file).equals(seccompProgram() as Buffer)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o400);
    expect(statSync(file).nlink).toBe(0);
    expect(readlinkSync(file)).toMatch(/\/filter-[0-9a-f]{12}\.bpf \(deleted\)$/);

    // Another process writes its own, in its own private directory, which it removes as it exits.
    const module = join(dirname(fileURLToPath(import.meta.url)), 'seccomp-filter.ts');
    const child = spawnSync(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        [
          `const { seccompFilterFile } = await import(${JSON.stringify(module)});`,
          "const { readlinkSync } = await import('node:fs');",
          'console.log(readlinkSync(seccompFilterFile()));',
        ].join(' '),
      ],
      { encoding: 'utf8' },
    );
    expect(child.status, child.stderr).toBe(0);
    const written = child.stdout.trim().replace(/ \(deleted\)$/, '');
    expect(written).toMatch(/\/filter-[0-9a-f]{12}\.bpf$/);
    expect(dirname(written)).not.toBe(dirname(readlinkSync(file).replace(/ \(deleted\)$/, '')));
    expect(existsSync(dirname(written))).toBe(false);
  });
});
