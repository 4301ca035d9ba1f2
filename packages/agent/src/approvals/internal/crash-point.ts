/**
 * Deterministic crash points for the exactly-once tests: when `X_TEST_CRASH_POINT` names this point, the process
 * kills itself with SIGKILL here (no cleanup, no flush), as a power loss or an OOM kill would. Unset in production.
 */
export function crashPoint(name: string): void {
  if (process.env.X_TEST_CRASH_POINT !== name) return;
  process.kill(process.pid, 'SIGKILL');
  // Nothing after the point may run while the signal is delivered.
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
}
