// The peak resident set of this process alone, for the benchmarks' child processes. Not
// `process.resourceUsage().maxRSS`: Linux carries a process's maxrss across execve from the image it replaced,
// and a child spawned by Node starts as a fork of its parent, so a child's maxRSS is at least its parent's RSS
// at the spawn (a benchmark parent holding 110 MB made an 80 MB child report 110 MB). `VmHWM` in
// /proc/self/status is the high-water mark of this process's own memory, which starts at the exec.
import { readFileSync } from 'node:fs';

/** Peak RSS in bytes since this process's exec (`VmHWM`), or `maxRSS` where /proc is not there. */
export function peakRssBytes() {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match !== null) return Number(match[1]) * 1024;
  } catch {
    // No procfs (macOS, Windows): maxRSS, which there is the process's own.
  }
  return process.resourceUsage().maxRSS * 1024;
}
