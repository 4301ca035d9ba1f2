/**
 * The next run of a conversation, claimed by one caller between its checks and its start (`RunDriver.reserve`): a
 * face that refuses a turn while a run goes on, then records the turn and starts its run, holds one across its awaits,
 * so no other start slips in between and its turn is never recorded and then refused (or answered by another run).
 */
export interface RunReservation {
  /**
   * Starts the claimed run, as `startRun` does (resolves once it has begun or already ended), and gives the claim up.
   * Refused (and given up) as `startRun` is refused: a deleted conversation, no sandbox, a caller who may not approve.
   */
  start(options?: { leaseWaitMs?: number }): Promise<void>;
  /** Gives the claim up without a run (the caller refused its turn); no-op once started or released. */
  release(): void;
}

/** One claim: settled when its run has begun or it was given up, which is what other starts wait for. */
export interface RunClaim {
  readonly settled: Promise<void>;
  settle(): void;
}

export function createRunClaim(): RunClaim {
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => {
    settle = resolve;
  });
  return { settled, settle };
}
