import { readFileSync } from 'node:fs';
import { descendantPids } from '../../processes/index.js';

function comm(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/**
 * Signals every process of a sandbox started as `pid` (the outer bubblewrap) except bubblewrap itself: the
 * outer one dies of SIGINT or SIGTERM (and the namespace with it), the inner one is the namespace's init.
 * The allowlist bridge ignores these signals, so it may receive them too.
 */
export function signalSandboxedProcesses(pid: number, signal: NodeJS.Signals): void {
  for (const target of descendantPids(pid)) {
    if (comm(target) === 'bwrap') continue;
    try {
      process.kill(target, signal);
    } catch {
      // Exited meanwhile.
    }
  }
}
