import { type BigIntStats, fstat, fstatSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { DirectoryHandle } from './confined-directory.js';

/**
 * How long after a directory's last change its ctime may still be shared by a later change: kernels
 * without multigrain timestamps (Linux before 6.13, many other filesystems) stamp ctime from a clock
 * that advances once per tick (1–10 ms). Waiting this long before trusting a token makes any later
 * change land on a later tick, so a different ctime.
 */
const SETTLE_NS = 25_000_000n;

/**
 * The listing version of an opened directory: `dev:ino:ctimeNs`. ctime, not mtime: a user can set mtime
 * (utimes), never ctime, and creating, removing or renaming an entry in the directory updates both.
 * With `settled`, waits until the ctime is older than the clock's granularity (see `SETTLE_NS`) and
 * stats again, so the token returned cannot be repeated by a later change.
 */
export async function directoryVersion(
  handle: DirectoryHandle,
  options: { sync: boolean; settled: boolean },
): Promise<string> {
  // A few rounds at most: a ctime ahead of this clock (a clock stepped back, a network filesystem's server
  // time) is never "old", and the token is returned as it is after them.
  for (let round = 0; ; round++) {
    const info =
      handle.fd === undefined
        ? options.sync
          ? statSync(handle.path, { bigint: true })
          : await stat(handle.path, { bigint: true })
        : options.sync
          ? fstatSync(handle.fd, { bigint: true })
          : await fstatOf(handle.fd);
    const token = `${info.dev}:${info.ino}:${info.ctimeNs}`;
    if (!options.settled) return token;
    const age = BigInt(Date.now()) * 1_000_000n - info.ctimeNs;
    if (age >= SETTLE_NS || round === 2) return token;
    const wait = age < 0n ? SETTLE_NS : SETTLE_NS - age;
    await new Promise((resolve) => setTimeout(resolve, Number(wait / 1_000_000n) + 1));
  }
}

/** An asynchronous bigint fstat of a raw descriptor (fs/promises has it only on FileHandles). */
function fstatOf(fd: number): Promise<BigIntStats> {
  return new Promise((resolve, reject) => {
    fstat(fd, { bigint: true }, (error, stats) => (error ? reject(error) : resolve(stats)));
  });
}
